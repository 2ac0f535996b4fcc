// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, npm's `latest`)
// against toolwire, plus the two SSE scenarios of 0.2.0-alpha.12 (see SSE_SCENARIOS). It needs
// Node >= 22; all come from the npm registry into .cache/conformance (installed once).
// `npm run conformance` runs the server suite, the four client scenarios and every client `auth/*`
// scenario of 0.2.0-alpha.12, and prints the counts.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = `${root}.cache/conformance`;
export const NODE22 = `${cache}/node_modules/node/bin/node`;
export const SUITE = `${cache}/node_modules/@modelcontextprotocol/conformance/dist/index.js`;
/** 0.2.0-alpha.12, installed under an npm alias beside 0.1.16. */
export const NEXT_SUITE = `${cache}/node_modules/conformance-next/dist/index.js`;
/**
 * 0.1.16's SSE scenarios initialize at 2025-11-25 and then send `MCP-Protocol-Version:
 * 2025-03-26` on their raw requests, which a server must refuse (400: not the version negotiated
 * on the session). 0.2.0-alpha.12 sends the negotiated version; these two run from it instead.
 */
export const SSE_SCENARIOS = ['server-sse-polling', 'server-sse-multiple-streams'];
// The preload that keeps the suite's client-mode test servers on 127.0.0.1 (see its header).
export const LOOPBACK = `${root}test/conformance/forceLoopback.mjs`;
export const CLIENT_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
];

/** Every `auth/*` client scenario of 0.2.0-alpha.12 (the issue-12 list, plus the extensions). */
export const AUTH_SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];
export const NEXT_EXPECTED_FAILURES = `${root}test/conformance/expected-failures-next.yml`;

/** Installs Node 22 and the suite into .cache/conformance when missing; throws if it cannot. */
export function ensureConformance() {
  if (existsSync(NODE22) && existsSync(SUITE) && existsSync(NEXT_SUITE)) return;
  mkdirSync(cache, { recursive: true });
  if (!existsSync(`${cache}/package.json`))
    writeFileSync(`${cache}/package.json`, '{"private":true}\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      'node@22',
      '@modelcontextprotocol/conformance@0.1.16',
      'conformance-next@npm:@modelcontextprotocol/conformance@0.2.0-alpha.12',
    ],
    { cwd: cache, stdio: 'inherit' },
  );
  if (!existsSync(NODE22) || !existsSync(SUITE) || !existsSync(NEXT_SUITE))
    throw new Error(
      'The conformance suite or Node 22 could not be installed into .cache/conformance',
    );
}

/** Runs a command; resolves with its exit code and output. */
function run(file, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Starts the conformance example server over HTTP; resolves with its URL and a stop function. */
export function startConformanceServer() {
  const child = spawn(
    process.execPath,
    [
      `${root}dist/cli/main.js`,
      'serve',
      `${root}build/examples/conformance/server.js`,
      '--http',
      '0',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (c) => {
      text += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(text);
      if (m)
        resolve({
          url: m[1],
          stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))),
        });
    });
    child.once('exit', () => reject(new Error(`the conformance server exited: ${text}`)));
  });
}

/** The server suite (all scenarios, pending ones included) with the expected-failures baseline. */
export function runServerSuite(url) {
  return run(NODE22, [
    SUITE,
    'server',
    '--url',
    url,
    '--suite',
    'all',
    '--expected-failures',
    `${root}test/conformance/expected-failures.yml`,
    '-o',
    `${cache}/results`,
  ]);
}

/** One server scenario of the 0.2.0-alpha.12 suite (see SSE_SCENARIOS). */
export function runNextServerScenario(url, scenario) {
  return run(NODE22, [
    NEXT_SUITE,
    'server',
    '--url',
    url,
    '--scenario',
    scenario,
    '-o',
    `${cache}/results-next`,
  ]);
}

/** One client scenario, its test servers kept on 127.0.0.1. */
export function runClientScenario(scenario) {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(`${root}build/examples/conformance/client.js`)}`;
  return run(NODE22, [
    '--import',
    pathToFileURL(LOOPBACK).href,
    SUITE,
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    '--timeout',
    '30000',
    '-o',
    `${cache}/results`,
  ]);
}

/** One client scenario of 0.2.0-alpha.12, with the baseline of expected failures. */
export function runNextClientScenario(scenario) {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(`${root}build/examples/conformance/client.js`)}`;
  return run(NODE22, [
    '--import',
    pathToFileURL(LOOPBACK).href,
    NEXT_SUITE,
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    '--expected-failures',
    NEXT_EXPECTED_FAILURES,
    '--timeout',
    '30000',
    '-o',
    `${cache}/results-next`,
  ]);
}

/** The check counts of a run: passed, total, failed, warnings (undefined when none printed). */
export function checkCounts(output) {
  const m = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
  return m ? { passed: +m[1], total: +m[2], failed: +m[3], warnings: +m[4] } : undefined;
}

/**
 * Runs every auth scenario (two at a time) and sorts them: `passed` (exit 0, every check passed),
 * `expected` (exit 0, failing only as the baseline expects), `failed` (anything else). Resolves
 * with the lists and a line per scenario.
 */
export async function runAuthScenarios() {
  const results = new Map();
  const queue = [...AUTH_SCENARIOS];
  await Promise.all(
    [0, 1].map(async () => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift())
        results.set(s, await runNextClientScenario(s));
    }),
  );
  const sorted = { passed: [], expected: [], failed: [], lines: [] };
  for (const scenario of AUTH_SCENARIOS) {
    const r = results.get(scenario);
    const counts = checkCounts(r.output);
    const allChecks = counts && counts.failed === 0 && counts.warnings === 0 && counts.passed > 0;
    let verdict;
    if (r.code === 0 && allChecks) verdict = 'passed';
    else if (r.code === 0) verdict = 'expected';
    else verdict = 'failed';
    sorted[verdict].push(scenario);
    const c = counts
      ? `${counts.passed}/${counts.total} checks, ${counts.failed} failed, ${counts.warnings} warnings`
      : 'no result';
    sorted.lines.push(`${verdict.padEnd(8)} ${scenario}: ${c} (exit ${r.code})`);
  }
  sorted.results = results;
  return sorted;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { prepare } = await import('./prepare.mjs');
  prepare();
  ensureConformance();
  const server = await startConformanceServer();
  const result = await runServerSuite(server.url);
  const sse = [];
  for (const scenario of SSE_SCENARIOS)
    sse.push([scenario, await runNextServerScenario(server.url, scenario)]);
  await server.stop();
  console.log(result.output.slice(result.output.indexOf('=== SUMMARY ===')));
  let failed = result.code !== 0;
  for (const [scenario, r] of sse) {
    console.log(
      `0.2.0-alpha.12 ${scenario}: ${/Passed: .*/.exec(r.output)?.[0] ?? 'no result'} (exit ${r.code})`,
    );
    failed ||= r.code !== 0;
  }
  for (const scenario of CLIENT_SCENARIOS) {
    const r = await runClientScenario(scenario);
    console.log(
      `client ${scenario}: ${/Passed: .*/.exec(r.output)?.[0] ?? 'no result'} (exit ${r.code})`,
    );
    failed ||= r.code !== 0;
  }
  const auth = await runAuthScenarios();
  console.log(`\nclient auth/* scenarios of 0.2.0-alpha.12:\n${auth.lines.join('\n')}`);
  console.log(
    `auth: ${auth.passed.length} passed, ${auth.expected.length} expected failures (extensions), ` +
      `${auth.failed.length} failed`,
  );
  failed ||= auth.failed.length > 0;
  process.exitCode = failed ? 1 : 0;
}

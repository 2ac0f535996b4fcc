// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, npm's `latest`)
// against toolwire, plus the two SSE scenarios of 0.2.0-alpha.12 (see SSE_SCENARIOS) and every
// server scenario 0.2.0-alpha.12 requires for 2025-11-25 and 2026-07-28 (`--requirements`). It needs
// Node >= 22; all come from the npm registry, installed once per user and version (see TOOLS).
// `npm run conformance` runs the server suite, the four client scenarios, every client `auth/*`
// scenario of 0.2.0-alpha.12 and its 2026-07-28 client scenarios, and prints the counts.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The runs' results, per checkout. */
const cache = `${root}.cache/conformance`;
/**
 * What the suite needs, pinned. It is installed once per user into
 * `$XDG_CACHE_HOME/toolwire/conformance-<hash of this list>` (`~/.cache` by default), not into each
 * checkout: the install is 240 MB (Node 22 alone is 125 MB) and about 13 s of CPU, which every
 * fresh clone paid again beside its `npm ci`. Changing the list installs a new folder beside the
 * old one.
 */
const TOOLS = [
  'node@22.23.3',
  '@modelcontextprotocol/conformance@0.1.16',
  'conformance-next@npm:@modelcontextprotocol/conformance@0.2.0-alpha.12',
];
const userCache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
const toolsHash = createHash('sha256').update(TOOLS.join('\n')).digest('hex').slice(0, 12);
/** Where the tools are installed (shared by every checkout of this user). */
export const TOOLS_DIR = join(userCache, 'toolwire', `conformance-${toolsHash}`);
export const NODE22 = `${TOOLS_DIR}/node_modules/node/bin/node`;
export const SUITE = `${TOOLS_DIR}/node_modules/@modelcontextprotocol/conformance/dist/index.js`;
/** 0.2.0-alpha.12, installed under an npm alias beside 0.1.16. */
export const NEXT_SUITE = `${TOOLS_DIR}/node_modules/conformance-next/dist/index.js`;
/**
 * 0.1.16's SSE scenarios initialize at 2025-11-25 and then send `MCP-Protocol-Version:
 * 2025-03-26` on their raw requests, which a server must refuse (400: not the version negotiated
 * on the session). 0.2.0-alpha.12 sends the negotiated version; these two run from it instead.
 */
export const SSE_SCENARIOS = ['server-sse-polling', 'server-sse-multiple-streams'];
/**
 * The tasks extension's server scenarios of 0.2.0-alpha.12. `--requirements 2026-07-28` runs them
 * unscored (an extension), so they are run one by one (`--scenario`, the revision inferred).
 */
export const TASKS_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
// The preload that keeps the suite's client-mode test servers on 127.0.0.1 (see its header).
export const LOOPBACK = `${root}test/conformance/forceLoopback.mjs`;
/** The client scenarios 2025-11-25 requires besides `auth/*` (run by runClientScenario). */
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
/**
 * The client scenarios 0.2.0-alpha.12 requires for 2026-07-28 besides `auth/*`: its `draft` suite
 * runs all but `tools_call` at that revision; `tools_call` runs at it on its own (see
 * runNextClientScenarios).
 */
export const MODERN_CLIENT_SCENARIOS = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
];
/** Every client scenario of 0.2.0-alpha.12 that runNextClientScenarios sorts. */
export const NEXT_CLIENT_SCENARIOS = [...AUTH_SCENARIOS, ...MODERN_CLIENT_SCENARIOS];
export const NEXT_EXPECTED_FAILURES = `${root}test/conformance/expected-failures-next.yml`;

const installed = (dir) =>
  [NODE22, SUITE, NEXT_SUITE].every((file) => existsSync(file.replace(TOOLS_DIR, dir)));

/**
 * Installs Node 22 and the suite into {@link TOOLS_DIR} when missing; throws if it cannot. The
 * install goes into a folder of its own and is renamed into place once complete, so a checkout
 * never sees half an install, and two checkouts installing at once both end with one whole copy.
 */
export function ensureConformance() {
  if (installed(TOOLS_DIR)) return;
  mkdirSync(dirname(TOOLS_DIR), { recursive: true });
  // What a killed install left behind (an hour is far longer than an install takes).
  for (const name of readdirSync(dirname(TOOLS_DIR))) {
    if (!name.includes('.installing-')) continue;
    const path = join(dirname(TOOLS_DIR), name);
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    // Another checkout may be removing it at the same moment: force ignores a folder gone.
    if (age > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
  const staging = mkdtempSync(`${TOOLS_DIR}.installing-`);
  try {
    writeFileSync(`${staging}/package.json`, '{"private":true}\n');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', ...TOOLS], {
      cwd: staging,
      stdio: 'inherit',
    });
    if (!installed(staging))
      throw new Error(`The conformance suite or Node 22 could not be installed into ${staging}`);
    try {
      renameSync(staging, TOOLS_DIR);
    } catch (error) {
      // Another checkout finished first: its copy is as good as this one.
      if (!installed(TOOLS_DIR)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
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

/** The revisions whose required server scenarios 0.2.0-alpha.12 runs, each with its baseline. */
export const REQUIREMENT_REVISIONS = ['2025-11-25', '2026-07-28'];

/**
 * Every server scenario 0.2.0-alpha.12 requires for `revision` (`--requirements`), at that
 * revision's wire, against the baseline `test/conformance/expected-failures-<revision>.yml`.
 */
export function runServerRequirements(url, revision) {
  return run(NODE22, [
    NEXT_SUITE,
    'server',
    '--url',
    url,
    '--requirements',
    revision,
    '--expected-failures',
    `${root}test/conformance/expected-failures-${revision}.yml`,
    '-o',
    `${cache}/results-${revision}`,
  ]);
}

/**
 * One client scenario of 0.2.0-alpha.12 at 2025-11-25 (the revision's required ones besides
 * `auth/*`: {@link CLIENT_SCENARIOS}), its test servers kept on 127.0.0.1.
 */
export function runClientScenario(scenario) {
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
    '--spec-version',
    '2025-11-25',
    '--timeout',
    '30000',
    '-o',
    `${cache}/results`,
  ]);
}

/** The check counts of a run: passed, total, failed, warnings (undefined when none printed). */
export function checkCounts(output) {
  const m = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
  return m ? { passed: +m[1], total: +m[2], failed: +m[3], warnings: +m[4] } : undefined;
}

/**
 * The runs of 0.2.0-alpha.12 that together hold every scenario of {@link NEXT_CLIENT_SCENARIOS}:
 * four suites (one suite run starts the suite's process once and its scenarios side by side,
 * instead of once per scenario, about 1.5 s of CPU each; `draft` holds the 2026-07-28 ones) and
 * `tools_call` at 2026-07-28, which no suite runs at that revision.
 */
const NEXT_CLIENT_RUNS = [
  { dir: 'auth', args: ['--suite', 'auth'] },
  { dir: 'backcompat', args: ['--suite', 'backcompat'] },
  { dir: 'extensions', args: ['--suite', 'extensions'] },
  { dir: 'draft', args: ['--suite', 'draft'] },
  { dir: 'modern', args: ['--scenario', 'tools_call', '--spec-version', '2026-07-28'] },
];

/** One client run of 0.2.0-alpha.12 (`selection`: its suite or scenario), checks saved under `outputDir`. */
function runNextClient(selection, outputDir) {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(`${root}build/examples/conformance/client.js`)}`;
  return run(NODE22, [
    '--import',
    pathToFileURL(LOOPBACK).href,
    NEXT_SUITE,
    'client',
    '--command',
    command,
    ...selection,
    '--timeout',
    '30000',
    '-o',
    outputDir,
  ]);
}

/** The scenarios the expected-failures baseline lists (its `client:` entries). */
function baselineScenarios() {
  const text = readFileSync(NEXT_EXPECTED_FAILURES, 'utf8');
  return new Set([...text.matchAll(/^\s*-\s*(\S+)\s*$/gm)].map((m) => m[1]));
}

/**
 * The checks a suite run saved for one scenario (`<dir>/<scenario>-<timestamp>/checks.json`), or
 * undefined when it saved none.
 */
function savedChecks(dir, scenario) {
  const parent = dirname(join(dir, scenario));
  const name = basename(scenario);
  if (!existsSync(parent)) return undefined;
  const entry = readdirSync(parent).find(
    (e) => e.startsWith(`${name}-`) && /^\d{4}-\d{2}-\d{2}T/.test(e.slice(name.length + 1)),
  );
  const file = entry && join(parent, entry, 'checks.json');
  return file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** Counts a scenario's checks by status (INFO lines are not checks). */
function countChecks(checks) {
  const count = (status) => checks.filter((c) => c.status === status).length;
  const passed = count('SUCCESS');
  const failed = count('FAILURE');
  const warnings = count('WARNING');
  return { passed, failed, warnings, total: passed + failed + warnings };
}

/**
 * Runs every scenario of {@link NEXT_CLIENT_SCENARIOS} ({@link NEXT_CLIENT_RUNS}, one after
 * another) and sorts them:
 * `passed` (every check passed, no warning), `expected` (failing, and listed in the baseline of
 * expected failures), `failed` (anything else, a listed scenario that passes included: the
 * baseline is stale). Resolves with the lists, a line per scenario and the suites' output.
 */
export async function runNextClientScenarios() {
  const dir = `${cache}/results-client`;
  rmSync(dir, { recursive: true, force: true });
  const outputs = [];
  for (const { dir: name, args } of NEXT_CLIENT_RUNS) {
    const r = await runNextClient(args, join(dir, name));
    outputs.push(`--- ${args.join(' ')} (exit ${r.code})\n${r.output}`);
  }
  const baseline = baselineScenarios();
  const sorted = { passed: [], expected: [], failed: [], lines: [], output: outputs.join('\n') };
  for (const scenario of NEXT_CLIENT_SCENARIOS) {
    const checks = NEXT_CLIENT_RUNS.map((r) => savedChecks(join(dir, r.dir), scenario)).find(
      (found) => found !== undefined,
    );
    const counts = checks && countChecks(checks);
    let verdict;
    if (!counts || counts.total === 0) verdict = 'failed';
    else if (counts.failed === 0 && counts.warnings === 0)
      verdict = baseline.has(scenario) ? 'failed' : 'passed';
    else verdict = baseline.has(scenario) ? 'expected' : 'failed';
    sorted[verdict].push(scenario);
    const c = counts
      ? `${counts.passed}/${counts.total} checks, ${counts.failed} failed, ${counts.warnings} warnings`
      : 'no result';
    const stale = verdict === 'failed' && counts?.failed === 0 && baseline.has(scenario);
    sorted.lines.push(
      `${verdict.padEnd(8)} ${scenario}: ${c}${stale ? ' (listed as an expected failure)' : ''}`,
    );
  }
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
  const required = [];
  for (const revision of REQUIREMENT_REVISIONS)
    required.push([revision, await runServerRequirements(server.url, revision)]);
  await server.stop();
  console.log(result.output.slice(result.output.indexOf('=== SUMMARY ===')));
  let failed = result.code !== 0;
  for (const [revision, r] of required) {
    console.log(
      `0.2.0-alpha.12 --requirements ${revision}: ${/Total: .*/.exec(r.output)?.[0] ?? 'no result'} (exit ${r.code})`,
    );
    failed ||= r.code !== 0;
  }
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
  const next = await runNextClientScenarios();
  console.log(`\nclient scenarios of 0.2.0-alpha.12:\n${next.lines.join('\n')}`);
  console.log(
    `client: ${next.passed.length} passed, ${next.expected.length} expected failures (extensions), ` +
      `${next.failed.length} failed`,
  );
  failed ||= next.failed.length > 0;
  process.exitCode = failed ? 1 : 0;
}

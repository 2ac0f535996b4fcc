// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, npm's `latest`)
// against toolwire, plus the two SSE scenarios of 0.2.0-alpha.12 (see SSE_SCENARIOS). It needs
// Node >= 22; all come from the npm registry into .cache/conformance (installed once).
// `npm run conformance` runs the server suite and the four client scenarios and prints the counts.
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
  process.exitCode = failed ? 1 : 0;
}

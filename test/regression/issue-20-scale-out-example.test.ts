/**
 * Issue 20: several instances could not be tried on one machine: the README listed three
 * `toolwire serve --redis` commands and "any HTTP load balancer". `npm run example:scale-out`
 * (examples/scale-out/run.ts) starts a Redis, three instances and a round-robin proxy, and prints
 * the commands to try through it. This test runs the example, runs the printed `list` and `call`s
 * through the proxy, checks from the proxy's own lines that one session and one task were served
 * by several instances, then stops it with Ctrl-C (SIGINT) and checks that nothing is left
 * listening (Redis included).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/cliRun.js';
import { ROOT } from '../support/paths.js';
import { markedBlock, page } from '../support/readme.js';

const home = mkdtempSync(join(tmpdir(), 'toolwire-scale-out-example-'));
const env = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`,
  XDG_CONFIG_HOME: home,
};
let example: ChildProcessWithoutNullStreams;
let printed = '';

/** The command the example printed for `toolwire <words>`, as a line of shell. */
const printedCommand = (words: string): string => {
  const line = new RegExp(`^ {2}(node dist/cli/main\\.js ${words} .+)$`, 'm').exec(printed)?.[1];
  if (!line) throw new Error(`the example printed no "${words}" command:\n${printed}`);
  return line;
};

/** Runs a printed command line in the repository, without a terminal. */
function sh(line: string) {
  const r = spawnSync('bash', ['-c', line], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The instances that served the requests the proxy printed after `mark` characters of output. */
const instancesSince = (mark: number) =>
  new Set(
    [...printed.slice(mark).matchAll(/^proxy: \w+ \/mcp -> instance (\d) /gm)].map((m) => m[1]),
  );

/** True when something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
  });
}

beforeAll(async () => {
  expect(markedBlock(page('docs/http.md'), 'example: scale-out').text).toContain(
    'npm run example:scale-out',
  );
  example = spawn(process.execPath, ['build/examples/scale-out/run.js', '--port', '0'], {
    cwd: ROOT,
    env,
  });
  example.stdout.on('data', (c: Buffer) => (printed += c.toString()));
  example.stderr.on('data', (c: Buffer) => (printed += c.toString()));
  await until(
    () => printed.includes('Ctrl-C stops everything.') || example.exitCode !== null,
    45_000,
    'the example to start',
  );
  if (example.exitCode !== null) throw new Error(`the example exited:\n${printed}`);
}, 60_000);

afterAll(() => {
  if (example?.exitCode === null) example.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('npm run example:scale-out', () => {
  it('serves list and calls through the proxy, a session and a task across instances', async () => {
    let mark = printed.length;
    const list = sh(printedCommand('list'));
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^add \(Add\)$/m);
    expect(list.stdout).toMatch(/^report \(Report\)$/m);

    // Calls as printed; --yes: there is no terminal to answer the question on.
    const yes = (line: string) => line.replace(/ call (\w+) /, ' call $1 --yes ');
    const add = sh(yes(printedCommand('call add')));
    expect(add).toEqual({ code: 0, stdout: '{"sum":42}\n', stderr: '' });
    // Its requests (stateless 2026-07-28 ones: the CLI's auto finds that era) were served by
    // several instances (the proxy's lines are read once this process is free to: spawnSync
    // held it).
    await until(() => instancesSince(mark).size > 1, 5000, 'the proxy to print two instances');

    mark = printed.length;
    const report = sh(yes(printedCommand('call report')));
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout)).toEqual({
      topic: 'MCP tasks',
      sections: ['Section 1 on MCP tasks', 'Section 2 on MCP tasks', 'Section 3 on MCP tasks'],
    });
    expect(report.stderr).toMatch(/^task \S+ working\ntask \S+ completed\n$/);
    await until(() => instancesSince(mark).size === 3, 5000, 'the proxy to print all instances');
  }, 60_000);

  it('stops Redis, the instances and the proxy on Ctrl-C', async () => {
    const ports = [
      ...[...printed.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])),
      ...[...printed.matchAll(/--http (\d+)/g)].map((m) => Number(m[1])),
    ];
    const unique = [...new Set(ports)];
    expect(unique).toHaveLength(5); // Redis, three instances, the proxy
    for (const port of unique) expect(await listening(port), `port ${port}`).toBe(true);
    const exited = new Promise((r) => example.once('close', r));
    example.kill('SIGINT');
    await exited;
    for (const port of unique) expect(await listening(port), `port ${port}`).toBe(false);
  }, 30_000);
});

/**
 * Issue 9, client: `StdioClientTransport.close()` signalled only the direct child, so a server
 * started through `sh -c` (or `npx`) whose real process ignores stdin closing and SIGTERM was
 * orphaned. The server now runs in its own process group (POSIX, the default): close() sends
 * SIGTERM and SIGKILL to the group and waits until no process of it is left; a host that exits
 * without close() sends the group SIGTERM from its 'exit'.
 *
 * Real `sh -c` wrappers; each grandchild reports its pid on stdout (a JSON-RPC notification, or
 * the shell's echo of `$!`). Bounded: 300 ms grace per step.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '../../src/stdio.js';
import { ROOT } from '../support/paths.js';

const GRACE = 300;
const leftovers: number[] = [];

afterEach(() => {
  // Against the old code these processes survive the test: do not leave them to the machine.
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/**
 * `process.kill(pid, 0)` succeeds, and (on Linux) the process is not a zombie: a killed
 * grandchild's new parent is init, and some inits (this sandbox's) reap only seconds later.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/** Waits up to `ms` for every pid to be gone; the ones still alive then. */
async function survivors(pids: number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return pids.filter(isAlive);
}

/** A grandchild's report: `{ "jsonrpc": "2.0", "method": "pid", "params": { "pid": N } }`. */
const PID_LINE = String.raw`echo "{\"jsonrpc\":\"2.0\",\"method\":\"pid\",\"params\":{\"pid\":$!}}"`;

/** Starts `sh -c script` (with `$0`, `$1`... from `args`) and waits for the grandchild's pid. */
async function wrapper(
  script: string,
  args: string[] = [],
): Promise<{ transport: StdioClientTransport; shell: number; grandchild: number }> {
  const transport = new StdioClientTransport({
    command: 'sh',
    args: ['-c', script, ...args],
    shutdownGraceMs: GRACE,
  });
  const reported = new Promise<number>((resolve) => {
    transport.onmessage = (m) => resolve((m as { params: { pid: number } }).params.pid);
  });
  await transport.start();
  const shell = transport.pid as number;
  leftovers.push(shell);
  const grandchild = await reported;
  leftovers.push(grandchild);
  expect(grandchild).not.toBe(shell);
  return { transport, shell, grandchild };
}

/** A Node grandchild that traps SIGTERM, never reads stdin, and holds the stdout pipe. */
const STUBBORN_NODE = [
  'process.on("SIGTERM", () => process.stderr.write("grandchild ignores SIGTERM\\n"));',
  'process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "pid", params: { pid: process.pid } }) + "\\n");',
  'setInterval(() => {}, 1000);',
].join('');

/** A Node grandchild that ends when its stdin closes. */
const POLITE_NODE = [
  'process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "pid", params: { pid: process.pid } }) + "\\n");',
  'process.stdin.resume();',
  'process.stdin.on("end", () => process.exit(0));',
].join('');

describe('closing a stdio server started through a wrapper', () => {
  it('ends a grandchild that traps SIGTERM and ignores stdin closing (SIGKILL to the group)', async () => {
    // sh waits for node; node holds stdout, so the direct child's pipes stay open after sh dies.
    const { transport, shell, grandchild } = await wrapper('"$0" -e "$1"; echo after >&2', [
      process.execPath,
      STUBBORN_NODE,
    ]);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await transport.close();
    expect(isAlive(grandchild)).toBe(false);
    expect(isAlive(shell)).toBe(false);
    await closed;
    expect(transport.exitStatus).toMatchObject({ unexpected: false });
  });

  it('ends a grandchild that closed its pipes while the shell exits at stdin closing', async () => {
    // The shell ends at EOF (cat), so the direct child closes cleanly; `sleep` ignores SIGTERM
    // and holds no pipe of ours: only the group says it is still there.
    const { transport, shell, grandchild } = await wrapper(
      `(trap "" TERM; exec sleep 60) </dev/null >/dev/null 2>&1 & ${PID_LINE}; cat >/dev/null`,
    );
    const started = Date.now();
    await transport.close();
    expect(isAlive(grandchild)).toBe(false);
    expect(isAlive(shell)).toBe(false);
    // stdin closing, then SIGTERM (ignored), then SIGKILL: two graces at least, three at most.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * GRACE - 20);
  });

  it('ends what a server that exited by itself left in its group', async () => {
    const { transport, grandchild } = await wrapper(
      `(trap "" TERM; exec sleep 60) </dev/null >/dev/null 2>&1 & ${PID_LINE}; exit 0`,
    );
    expect(await transport.waitForExit(5000)).toMatchObject({ code: 0, unexpected: true });
    expect(isAlive(grandchild)).toBe(true);
    await transport.close();
    expect(isAlive(grandchild)).toBe(false);
  });

  it('a well-behaved server still ends at the first step, unsignalled', async () => {
    const { transport, grandchild } = await wrapper('"$0" -e "$1"', [
      process.execPath,
      POLITE_NODE,
    ]);
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeLessThan(GRACE);
    expect(isAlive(grandchild)).toBe(false);
    expect(transport.exitStatus).toMatchObject({ code: 0, signal: null });
  });

  it('a host that exits without close() takes the group with it', async () => {
    // The host runs the built library; its server and the server's child ignore stdin closing.
    const host = [
      `import { StdioClientTransport } from ${JSON.stringify(`${ROOT}dist/stdio.js`)};`,
      'const t = new StdioClientTransport({ command: "sh", args: ["-c",',
      JSON.stringify(`sleep 60 </dev/null >/dev/null 2>&1 & ${PID_LINE}; exec sleep 60`),
      '] });',
      't.onmessage = (m) => {',
      '  process.stdout.write(JSON.stringify([t.pid, m.params.pid]) + "\\n");',
      '  process.exit(0);',
      '};',
      'await t.start();',
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', host], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const pids = JSON.parse(out) as number[];
    leftovers.push(...pids);
    expect(pids).toHaveLength(2);
    expect(await survivors(pids, 3000)).toEqual([]);
  });
});

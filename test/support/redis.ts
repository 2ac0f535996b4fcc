/**
 * @module A real redis-server for one test file, on a free loopback port, with no persistence.
 * Installs Debian's package when missing (scripts/redisServer.mjs) and fails loudly when it
 * cannot start: Redis tests are never skipped. `stop()` and `start()` let fault tests take
 * Redis away and bring it back on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, Socket } from 'node:net';
// @ts-expect-error -- a plain .mjs script shared with `npm test`; it has no type declarations.
import { ensureRedisServer } from '../../scripts/redisServer.mjs';

/** A running Redis for tests. */
export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGKILL: like a crash, no clean shutdown). */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was persisted). */
  start(): Promise<void>;
  /** Runs one command with a throwaway connection, answering its raw RESP reply. */
  command(...args: string[]): Promise<string>;
}

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function resp(args: string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

async function rawCommand(port: number, args: string[], timeoutMs = 1000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('redis command timed out'));
    }, timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.connect(port, '127.0.0.1', () => socket.write(resp(args)));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (data.endsWith('\r\n')) {
        clearTimeout(timer);
        socket.end();
        resolve(data);
      }
    });
  });
}

/**
 * Starts redis-server for this test file; `args` are extra command-line settings (e.g.
 * `['--rename-command', 'CONFIG', '']` for a managed-Redis look-alike).
 */
export async function startRedis(options: { args?: readonly string[] } = {}): Promise<TestRedis> {
  const binary = ensureRedisServer() as string;
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = '';
  const start = async (): Promise<void> => {
    child = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        ...(options.args ?? []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
    child.stderr?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        if ((await rawCommand(port, ['PING'])).startsWith('+PONG')) return;
      } catch {
        // not up yet
      }
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server did not start on port ${port}:\n${log}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    command: (...args) => rawCommand(port, args),
  };
}

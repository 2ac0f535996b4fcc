/**
 * @module `toolwire serve --watch`, a development loop: a supervisor runs `toolwire serve` as a
 * child process and restarts it when the module, or any local file it loaded, changes. The child
 * reports the files it loads (module hooks in watchHooks.ts, plus CommonJS's require cache); the
 * supervisor watches their folders (editors that save by renaming are seen too) and waits for
 * changes to settle (150 ms) before restarting. Over HTTP the new process listens on the same
 * port (clients re-initialize on the 404 of their old session); over stdio the supervisor relays
 * the client's messages (watchRelay.ts) so the client keeps its connection. Each restart is
 * reported by one line on stderr; stdout carries only the server's messages.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import module, { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Readable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import { LineDecoder } from '../transports/stdio/lineDecoder.js';
import type { ServeCommand } from './args.js';
import { sayWaitingOnTerminal } from './stdoutGuard.js';
import { StdioRelay } from './watchRelay.js';

const CHILD_ENV = 'TOOLWIRE_WATCH_CHILD';
const SETTLE_MS = 150;
const STOP_GRACE_MS = 3000;
/** Longest line the stdio relay passes on (the server's own limit is 4 MiB). */
const RELAY_LINE_BYTES = 64 * 1024 * 1024;

interface FileMessage {
  type: 'toolwire:file';
  url: string;
}

/**
 * In a server run by `serve --watch`, reports each local file loaded from now on to the
 * supervisor; returns what to call once the module is loaded (it adds CommonJS files). Does
 * nothing in a process that is not such a child.
 */
export function reportLoadedFiles(): () => void {
  const send = process.send?.bind(process);
  if (process.env[CHILD_ENV] !== '1' || !send) return () => {};
  const report = (url: string): void => {
    if (url.startsWith('file:') && !url.includes('/node_modules/'))
      send({ type: 'toolwire:file', url } satisfies FileMessage);
  };
  if (typeof module.register === 'function') {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (url) => report(String(url)));
    port1.unref();
    // By way of ../cli/: this module may be bundled into dist/cli/ or a chunk in dist/chunks/.
    module.register(new URL('../cli/watchHooks.js', import.meta.url), {
      data: { port: port2 },
      transferList: [port2],
    });
  }
  process.channel?.unref();
  return () => {
    for (const file of Object.keys(createRequire(import.meta.url).cache))
      report(pathToFileURL(file).href);
  };
}

/** Watches the folders of the files it is given, calling `changed` for those files only. */
class FileSet {
  private readonly files = new Set<string>();
  private readonly folders = new Map<string, FSWatcher>();

  constructor(private readonly changed: (file: string) => void) {}

  add(file: string): void {
    if (this.files.has(file)) return;
    this.files.add(file);
    const folder = dirname(file);
    if (this.folders.has(folder)) return;
    try {
      const watcher = watch(folder, (_event, name) => {
        const path = name === null ? undefined : join(folder, name.toString());
        if (path !== undefined && this.files.has(path)) this.changed(path);
      });
      watcher.on('error', () => {});
      this.folders.set(folder, watcher);
    } catch {
      // A folder that vanished: its files can no longer change.
    }
  }

  close(): void {
    for (const watcher of this.folders.values()) watcher.close();
  }
}

/** Splits a stream into lines for the relay; what cannot be a message is dropped, and said. */
function readLines(
  stream: Readable,
  source: { from: string; log: (message: string) => void },
  line: (text: string) => void,
): void {
  const lines = new LineDecoder(
    {
      line,
      oversized: () => source.log(`dropped a message from ${source.from} longer than 64 MiB`),
      invalidUtf8: () => source.log(`dropped a message from ${source.from} that is not UTF-8`),
    },
    RELAY_LINE_BYTES,
  );
  stream.on('data', (chunk: Buffer) => lines.push(chunk));
}

/** Runs the server as a child process, restarting it on changes, until SIGINT/SIGTERM. */
export async function superviseWatch(command: ServeCommand): Promise<number> {
  const stdio = command.mode.kind === 'stdio';
  const log = (message: string): void => void process.stderr.write(`toolwire: ${message}\n`);
  const relay = stdio
    ? new StdioRelay({ toClient: (line) => process.stdout.write(line + '\n'), log })
    : undefined;
  const args = process.argv.slice(2).filter((a) => a !== '--watch');
  let child: ChildProcess | undefined;
  let stopping = false;
  let settle: ReturnType<typeof setTimeout> | undefined;
  let restarting: Promise<void> | undefined;
  const files = new FileSet((file) => {
    clearTimeout(settle);
    settle = setTimeout(() => void restart(file), SETTLE_MS);
  });
  files.add(resolve(command.module));

  const start = (): void => {
    const proc = fork(process.argv[1] ?? '', args, {
      env: { ...process.env, [CHILD_ENV]: '1' },
      stdio: stdio ? ['pipe', 'pipe', 'inherit', 'ipc'] : ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: process.execArgv,
    });
    child = proc;
    proc.on('message', (m: FileMessage) => {
      if (m?.type === 'toolwire:file') files.add(fileURLToPath(m.url));
    });
    proc.once('exit', (code, signal) => {
      if (child === proc) child = undefined;
      relay?.serverGone();
      if (stopping || restarting) return;
      relay?.serverDown();
      log(
        `the server ${signal ? `was killed by ${signal}` : `exited with code ${code}`}; it restarts when a watched file changes`,
      );
    });
    if (relay && proc.stdout && proc.stdin) {
      const stdin = proc.stdin;
      stdin.on('error', () => {});
      readLines(proc.stdout, { from: 'the server', log }, (text) => relay.fromServer(text));
      relay.serverStarted((line) => void stdin.write(line + '\n'));
    }
  };

  const stop = async (): Promise<void> => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  const restart = async (file: string): Promise<void> => {
    if (stopping) return;
    await restarting;
    restarting = (async () => {
      log(`${relative(process.cwd(), file) || basename(file)} changed: restarting the server`);
      await stop();
      if (!stopping) start();
    })();
    await restarting;
    restarting = undefined;
  };

  if (command.mode.kind === 'http' && command.mode.port === 0)
    log('with --http 0 each restart listens on a new port: give a port number to keep one');
  start();
  // The server's own stdin is the relay's pipe: the supervisor tells a person on a terminal.
  if (stdio) sayWaitingOnTerminal(command.module);
  return new Promise<number>((done) => {
    const finish = (): void => {
      if (stopping) return;
      stopping = true;
      clearTimeout(settle);
      files.close();
      void stop().then(() => done(0));
    };
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    if (relay) {
      readLines(process.stdin, { from: 'the client', log }, (text) => relay.fromClient(text));
      // The client is gone: end the server the way it would end without the supervisor.
      process.stdin.on('end', () => {
        stopping = true;
        clearTimeout(settle);
        files.close();
        const proc = child;
        if (!proc) return done(0);
        proc.once('exit', () => done(0));
        proc.stdin?.end();
      });
    }
  });
}

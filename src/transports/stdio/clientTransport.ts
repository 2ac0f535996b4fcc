/**
 * @module The stdio client transport: spawns the server without a shell, with a controlled
 * environment, in its own process group (POSIX), and closes it the way the spec says: close
 * stdin, wait, SIGTERM, wait, SIGKILL, each signal going to the whole group, so a server started
 * through `sh -c` or `npx` leaves nothing behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { DEFAULT_MAX_DEPTH } from '../../jsonrpc/decode.js';
import { LocalError } from '../../jsonrpc/errors.js';
import { startedTwice } from '../../jsonrpc/transportClaims.js';
import type { CacheContext, MessageInfo, Transport } from '../../jsonrpc/transport.js';
import type { JsonRpcMessage } from '../../jsonrpc/types.js';
import { credentialDigest } from '../credentialDigest.js';
import { defaultEnvironment } from './environment.js';
import { forgetGroup, groupAlive, killTree, signalGroup, trackGroup } from './processGroup.js';
import { decoderFor, DEFAULT_MAX_MESSAGE_BYTES, encodeLine } from './lineSink.js';
import { StderrTail } from './stderrTail.js';

/** How often close() looks whether the server's process group is empty. */
const GROUP_POLL_MS = 50;
/** How often a group left behind by a server that exited by itself is looked at. */
const STRAGGLER_POLL_MS = 1000;

/** Options of {@link StdioClientTransport}. */
export interface StdioClientOptions {
  /** The program to run (looked up on PATH; never run through a shell). */
  command: string;
  args?: readonly string[];
  /** Added to (and overriding) the default environment. */
  env?: Record<string, string>;
  /** Pass the whole parent environment instead of the safe default. Default false. */
  inheritEnv?: boolean;
  cwd?: string;
  /**
   * What to do with the server's stderr. Default `forward`: it is written to this process's
   * stderr as it arrives and its last lines are kept ({@link StdioClientTransport.stderrTail}),
   * so the error of a server that dies quotes them ({@link ServerExitedError}). `inherit` gives
   * the server this process's stderr itself (a terminal stays a terminal to it), `pipe` gives
   * it to you ({@link StdioClientTransport.stderr}), `ignore` drops it: the error then has none.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore' | 'forward';
  /** Largest accepted message. Default 4 MiB. */
  maxMessageBytes?: number;
  /** Deepest accepted nesting. Default 64. */
  maxDepth?: number;
  /**
   * Run the server in its own session and process group (POSIX; Windows has none). Default true.
   * close() then signals the whole group, so the processes a wrapper (`sh -c`, `npx`) started
   * end with it; when this process exits without close(), its 'exit' sends the group SIGTERM
   * (SIGKILL if a close() had sent SIGTERM already). Signals a terminal sends to its foreground
   * group (Ctrl-C) reach this process only, which can cancel what runs and shut the server down
   * in order; a host killed by a signal runs no 'exit' listener, and its servers see only their
   * stdin close. `false` keeps the server in this process's group, and close() signals the
   * direct child alone. On Windows, close() ends the process tree with `taskkill /T /F`.
   */
  detached?: boolean;
  /**
   * How long to wait after closing stdin, then after SIGTERM, then after SIGKILL, for the server
   * (and, in its own group, every process of the group) to end. Default 2000 ms each.
   */
  shutdownGraceMs?: number;
}

/** How the server process ended. */
export interface ExitStatus {
  /** The exit code, or null when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it, if any. */
  readonly signal: NodeJS.Signals | null;
  /** True when it ended without {@link StdioClientTransport.close} asking it to. */
  readonly unexpected: boolean;
}

/** A command line's words as a message shows them: one with spaces or quotes is quoted. */
function shownCommand(words: readonly string[]): string {
  return words.map((w) => (/^[^\s"'\\]+$/.test(w) ? w : JSON.stringify(w))).join(' ');
}

/**
 * A stdio server that ended by itself: what pending and later requests of its connection fail
 * with (a `closed` LocalError, so `McpClient.connect` rejects with it when the server dies while
 * starting), with how it ended and the last lines of its stderr, in the message and as fields.
 */
export class ServerExitedError extends LocalError {
  /** The program that was run, and its arguments. */
  readonly command: string;
  readonly args: readonly string[];
  /** Its exit code, or null when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, if any. */
  readonly signal: NodeJS.Signals | null;
  /**
   * The last lines (at most 20, 4 KiB) it wrote to stderr, with `stderr: 'forward'` (the
   * default); empty when it wrote none or its stderr went elsewhere.
   */
  readonly stderrTail: string;

  constructor(
    server: { command: string; args: readonly string[]; stderr: StdioClientOptions['stderr'] },
    exit: ExitStatus,
    stderrTail: string,
  ) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const said = stderrTail
      ? `; its last stderr lines:\n${stderrTail
          .split('\n')
          .map((line) => `  | ${line}`)
          .join('\n')}`
      : (server.stderr ?? 'forward') === 'forward'
        ? ' without writing anything on stderr'
        : '';
    super(
      'closed',
      `The server process (${shownCommand([server.command, ...server.args])}) ${how}${said}`,
    );
    this.command = server.command;
    this.args = server.args;
    this.exitCode = exit.code;
    this.signal = exit.signal;
    this.stderrTail = stderrTail;
  }
}

/** Runs an MCP server as a child process and talks to it over its stdin and stdout. */
export class StdioClientTransport implements Transport {
  readonly networkTransport = 'pipe' as const;

  /** The command line: a client remembers per server process which era it speaks. */
  get endpointKey(): string {
    return JSON.stringify([this.options.command, ...(this.options.args ?? [])]);
  }

  /** A new transport that runs the same command (not started). */
  respawn(): StdioClientTransport {
    return new StdioClientTransport(this.options);
  }

  /** The command line, and a digest of the environment the server is given. */
  async cacheContext(): Promise<CacheContext> {
    const env = this.options.inheritEnv
      ? { ...(process.env as Record<string, string>), ...this.options.env }
      : { ...this.options.env };
    return { endpoint: this.endpointKey, credential: await credentialDigest(env) };
  }

  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private closedFlag = false;
  private corked = false;
  private closing = false;
  private stopping: Promise<void> | undefined;
  /** The server's process group while any process of it may live (POSIX, detached). */
  private group: { pgid: number; exitSignal: NodeJS.Signals } | undefined;
  private exit: ExitStatus | undefined;
  private gone: ServerExitedError | undefined;
  private readonly tail: StderrTail | undefined;
  private readonly decoder;

  constructor(private readonly options: StdioClientOptions) {
    this.decoder = decoderFor(
      this,
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      options.maxDepth ?? DEFAULT_MAX_DEPTH,
    );
    if ((options.stderr ?? 'forward') === 'forward') this.tail = new StderrTail();
  }

  /**
   * The last lines (at most 20, 4 KiB) the server wrote to stderr, with `stderr: 'forward'`
   * (the default).
   */
  get stderrTail(): string {
    return this.tail?.value ?? '';
  }

  /** How the server process ended, once it has. */
  get exitStatus(): ExitStatus | undefined {
    return this.exit;
  }

  /** Why the server is gone, once it ended by itself (its connection's requests fail with it). */
  get closeReason(): ServerExitedError | undefined {
    return this.gone;
  }

  /**
   * How the server process ended, waiting up to `ms` for it to end (a write to a server that just
   * died can fail before its exit is reported). Undefined if it is still running then.
   */
  async waitForExit(ms: number): Promise<ExitStatus | undefined> {
    if (this.exit || !this.exited) return this.exit;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.exited, new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
    return this.exit;
  }

  /** The child's stderr when `stderr: 'pipe'`. */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  /** The child's process id once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw startedTwice('StdioClientTransport');
    const env = this.options.inheritEnv
      ? { ...(process.env as Record<string, string>), ...this.options.env }
      : { ...defaultEnvironment(), ...this.options.env };
    const stderrMode = this.options.stderr ?? 'forward';
    const grouped = this.options.detached !== false && process.platform !== 'win32';
    const child = spawn(this.options.command, [...(this.options.args ?? [])], {
      shell: false,
      env,
      cwd: this.options.cwd,
      stdio: ['pipe', 'pipe', stderrMode === 'forward' ? 'pipe' : stderrMode],
      windowsHide: true,
      detached: grouped,
    });
    this.child = child;
    this.exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.once('exit', (code, signal) => {
      this.exit = { code, signal, unexpected: !this.closing };
    });
    child.once('close', () => {
      this.finish();
      this.watchStragglers();
    });
    const tail = this.tail;
    if (tail)
      child.stderr?.on('data', (chunk: Buffer) => {
        tail.push(chunk);
        process.stderr.write(chunk);
      });
    child.stdout?.on('data', (chunk: Buffer) => this.decoder.push(chunk));
    child.stdout?.on('end', () => this.decoder.end());
    child.stdin?.on('error', (error) => this.onerror?.(error));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        if (grouped && child.pid !== undefined) {
          this.group = { pgid: child.pid, exitSignal: 'SIGTERM' };
          trackGroup(this.group);
        }
        resolve();
      });
      child.once('error', (error) => {
        this.finish();
        reject(
          new LocalError('transport', `Could not start ${this.options.command}: ${error.message}`, {
            cause: error,
          }),
        );
      });
    });
    child.on('error', (error) => this.onerror?.(error));
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.closedFlag || !stdin || stdin.destroyed)
      throw this.gone ?? new LocalError('closed', 'The server process is not running');
    if (!this.corked) {
      // Requests made in the same tick leave in one writev.
      this.corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    if (stdin.write(encodeLine(message))) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    });
  }

  /**
   * Closes stdin, then waits; sends SIGTERM, then waits; then SIGKILL, then waits (each wait
   * `shutdownGraceMs`). In its own group, signals go to the whole group and each wait lasts until
   * no process of the group is left. Also ends what a server that exited by itself left behind.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.stopping ??= this.stop(child);
    return this.stopping;
  }

  private async stop(child: ChildProcess): Promise<void> {
    this.closing = true;
    const grace = this.options.shutdownGraceMs ?? 2000;
    if (child.stdin && !child.stdin.destroyed) child.stdin.end();
    if (await this.ended(grace)) return;
    await this.signal(child, 'SIGTERM');
    if (await this.ended(grace)) return;
    await this.signal(child, 'SIGKILL');
    await this.ended(grace);
  }

  /** Sends `signal` to the server: its group, its tree (Windows), or the child alone. */
  private async signal(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const group = this.group;
    if (group) {
      group.exitSignal = 'SIGKILL';
      if (!signalGroup(group.pgid, signal)) this.releaseGroup();
      return;
    }
    const running = child.exitCode === null && child.signalCode === null;
    if (!running) return;
    // Windows has no SIGTERM for console programs: the first signal ends the tree for good.
    if (process.platform === 'win32' && signal === 'SIGTERM' && child.pid !== undefined)
      await killTree(child.pid);
    else child.kill(signal);
  }

  /**
   * Waits up to `ms` for the server to end: its group empty (a process of it may hold no pipe
   * of ours), then its pipes closed; without a group, its pipes closed.
   */
  private async ended(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.group) {
      if (!groupAlive(this.group.pgid)) this.releaseGroup();
      else if (Date.now() >= deadline) return false;
      else await this.pause(Math.min(GROUP_POLL_MS, deadline - Date.now()));
    }
    if (this.closedFlag) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const closed = await Promise.race([
      this.exited?.then(() => true) ?? Promise.resolve(true),
      new Promise<boolean>(
        (r) => (timer = setTimeout(() => r(false), Math.max(0, deadline - Date.now()))),
      ),
    ]);
    clearTimeout(timer);
    return closed;
  }

  /** Sleeps `ms`, or less when the server's pipes close meanwhile (it often ends the group). */
  private async pause(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slept = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await (this.closedFlag || !this.exited ? slept : Promise.race([slept, this.exited]));
    clearTimeout(timer);
  }

  private releaseGroup(): void {
    if (this.group) forgetGroup(this.group);
    this.group = undefined;
  }

  /**
   * After the server's pipes closed: a group with processes left (the server exited by itself,
   * or they closed their pipes) stays tracked for the 'exit' signal until it empties; polling
   * notices that, so the number is not signalled once it may belong to another group.
   */
  private watchStragglers(): void {
    const group = this.group;
    if (!group || this.closing) return;
    if (!groupAlive(group.pgid)) {
      this.releaseGroup();
      return;
    }
    const timer = setInterval(() => {
      if (this.group !== group || !groupAlive(group.pgid)) {
        clearInterval(timer);
        if (this.group === group) this.releaseGroup();
      }
    }, STRAGGLER_POLL_MS);
    timer.unref();
  }

  private finish(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    // Its pipes closed after it exited: the exit status and the whole of its stderr are known.
    if (this.exit?.unexpected)
      this.gone = new ServerExitedError(
        {
          command: this.options.command,
          args: [...(this.options.args ?? [])],
          stderr: this.options.stderr,
        },
        this.exit,
        this.stderrTail,
      );
    this.onclose?.();
  }
}

/**
 * @module The stdio client transport: spawns the server without a shell, with a controlled
 * environment, and closes it the way the spec says: close stdin, wait, SIGTERM, wait, SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { DEFAULT_MAX_DEPTH } from '../../jsonrpc/decode.js';
import { LocalError } from '../../jsonrpc/errors.js';
import type { MessageInfo, Transport } from '../../jsonrpc/transport.js';
import type { JsonRpcMessage } from '../../jsonrpc/types.js';
import { defaultEnvironment } from './environment.js';
import { decoderFor, DEFAULT_MAX_MESSAGE_BYTES, encodeLine } from './lineSink.js';
import { StderrTail } from './stderrTail.js';

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
   * What to do with the server's stderr. Default `inherit`. `forward` writes it to this process's
   * stderr as it arrives and keeps its last lines ({@link StdioClientTransport.stderrTail}), so an
   * error can say why the server died.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore' | 'forward';
  /** Largest accepted message. Default 4 MiB. */
  maxMessageBytes?: number;
  /** Deepest accepted nesting. Default 64. */
  maxDepth?: number;
  /**
   * Run the server in its own session and process group (POSIX; ignored on Windows), so signals a
   * terminal sends to the foreground group (Ctrl-C) reach this process only, which can then
   * cancel what runs and shut the server down in order. The server still ends when this process
   * dies: its stdin closes. Default false.
   */
  detached?: boolean;
  /** How long to wait after closing stdin, then after SIGTERM. Default 2000 ms each. */
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

/** Runs an MCP server as a child process and talks to it over its stdin and stdout. */
export class StdioClientTransport implements Transport {
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private closedFlag = false;
  private corked = false;
  private closing = false;
  private exit: ExitStatus | undefined;
  private readonly tail: StderrTail | undefined;
  private readonly decoder;

  constructor(private readonly options: StdioClientOptions) {
    this.decoder = decoderFor(
      this,
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      options.maxDepth ?? DEFAULT_MAX_DEPTH,
    );
    if (options.stderr === 'forward') this.tail = new StderrTail();
  }

  /** The last lines (at most 20, 4 KiB) the server wrote to stderr, with `stderr: 'forward'`. */
  get stderrTail(): string {
    return this.tail?.value ?? '';
  }

  /** How the server process ended, once it has. */
  get exitStatus(): ExitStatus | undefined {
    return this.exit;
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
    if (this.child)
      throw new LocalError(
        'transport',
        'StdioClientTransport.start() was called twice: a transport is started once, by the connect() that uses it',
      );
    const env = this.options.inheritEnv
      ? { ...(process.env as Record<string, string>), ...this.options.env }
      : { ...defaultEnvironment(), ...this.options.env };
    const stderrMode = this.options.stderr ?? 'inherit';
    const child = spawn(this.options.command, [...(this.options.args ?? [])], {
      shell: false,
      env,
      cwd: this.options.cwd,
      stdio: ['pipe', 'pipe', stderrMode === 'forward' ? 'pipe' : stderrMode],
      windowsHide: true,
      detached: this.options.detached === true && process.platform !== 'win32',
    });
    this.child = child;
    this.exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.once('exit', (code, signal) => {
      this.exit = { code, signal, unexpected: !this.closing };
    });
    child.once('close', () => this.finish());
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
      child.once('spawn', resolve);
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
      throw new LocalError('closed', 'The server process is not running');
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

  /** Closes stdin, then waits; sends SIGTERM, then waits; then SIGKILL. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closedFlag) return;
    this.closing = true;
    const grace = this.options.shutdownGraceMs ?? 2000;
    const waitExit = (ms: number): Promise<boolean> =>
      Promise.race([
        this.exited?.then(() => true) ?? Promise.resolve(true),
        new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref()),
      ]);
    child.stdin?.end();
    if (await waitExit(grace)) return;
    child.kill('SIGTERM');
    if (await waitExit(grace)) return;
    child.kill('SIGKILL');
    await waitExit(grace);
  }

  private finish(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.onclose?.();
  }
}

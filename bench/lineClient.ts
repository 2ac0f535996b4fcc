/**
 * @module A minimal JSON-lines driver for benchmarks: the same cheap client for every server, so
 * the figures compare servers, not clients. Requests made in one tick (the lanes a chunk of
 * responses released) are written with one write(), as responses are by the ceiling: a client
 * that paid a system call per request would be slower than the fastest servers it measures.
 * {@link LineClient.flood} drives a server without a window: every request written at once, the
 * answers only counted, so the server alone is the bottleneck.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpuNs, memoryMiB } from './procStats.js';

/** One spawned server and its pending requests. */
export class LineClient {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private nextId = 1;
  private buffer = '';
  private outgoing = '';
  /** Set while a flood runs: responses are counted, not parsed (see {@link flood}). */
  private counting: { left: number; errors: number; done: () => void } | undefined;
  readonly spawnedAt = process.hrtime.bigint();

  constructor(command: string, args: string[], env?: Record<string, string>) {
    this.child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'inherit'],
      ...(env ? { env: { ...process.env, ...env } } : {}),
    });
    this.child.stdout?.setEncoding('utf8');
    this.child.stdout?.on('data', (chunk: string) => this.onData(chunk));
  }

  private onData(chunk: string): void {
    if (this.counting) {
      this.count(chunk, this.counting);
      return;
    }
    const text = this.buffer + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const message = JSON.parse(text.slice(start, nl)) as {
        id?: number;
        result?: unknown;
        error?: unknown;
      };
      start = nl + 1;
      if (message.id === undefined) continue;
      const resolve = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) throw new Error(`server error: ${JSON.stringify(message.error)}`);
      resolve?.(message.result);
    }
    this.buffer = text.slice(start);
  }

  /**
   * Counts the responses of a flood by their newlines (a flood answers nothing else): a
   * `JSON.parse` per response would make the client, not the server, the bottleneck. An error
   * response is noticed by its `"error"` member (echo's answers never contain that string).
   */
  private count(chunk: string, flood: NonNullable<LineClient['counting']>): void {
    let lines = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', nl + 1)) lines++;
    if (chunk.includes('"error"')) flood.errors++;
    flood.left -= lines;
    if (flood.left > 0) return;
    this.counting = undefined;
    flood.done();
  }

  /**
   * A flood: `total` requests of `method` written at once, as fast as the pipe takes them, with
   * no window (no request waits for an answer), the client only counting the answers. The
   * server reads many requests per chunk and is the bottleneck, so its CPU per call is its own
   * cost per request. Resolves with the milliseconds from the first write to the last answer;
   * rejects when any answer was an error. Nothing else may be pending meanwhile.
   */
  async flood(method: string, params: Record<string, unknown>, total: number): Promise<number> {
    if (this.pending.size > 0 || this.buffer.length > 0)
      throw new Error('a flood needs an idle client');
    // Lines queued this tick (`notifications/initialized` right after initialize) go first.
    if (this.outgoing.length > 0) this.flush();
    let lines = '';
    for (let i = 0; i < total; i++)
      lines += JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }) + '\n';
    const flood = { left: total, errors: 0, done: () => {} };
    const answered = new Promise<void>((resolve) => (flood.done = resolve));
    this.counting = flood;
    const start = process.hrtime.bigint();
    this.child.stdin?.write(lines);
    await answered;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (flood.errors > 0) throw new Error(`the server answered a flood with errors`);
    return ms;
  }

  /** Queues one line; the lines of a tick are written together once the tick's work is done. */
  private send(message: object): void {
    if (this.outgoing.length === 0) process.nextTick(this.flush);
    this.outgoing += JSON.stringify(message) + '\n';
  }

  private readonly flush = (): void => {
    if (this.outgoing.length === 0) return; // a flood wrote them already
    const lines = this.outgoing;
    this.outgoing = '';
    this.child.stdin?.write(lines);
  };

  /** Sends one request; resolves with its result. */
  request(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** initialize + initialized. */
  async initialize(): Promise<void> {
    await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Resident set size of the server process now, and its peak, in MiB (Linux /proc). */
  memory(): { rss: number; peak: number } {
    return memoryMiB(this.pid);
  }

  /** CPU time the server process has used so far, in nanoseconds (Linux /proc). */
  cpuNs(): number {
    return cpuNs(this.pid);
  }

  private get pid(): number {
    if (this.child.pid === undefined) throw new Error('the server process did not start');
    return this.child.pid;
  }

  /** Ends the process and waits for it. */
  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin?.end();
    setTimeout(() => this.child.kill('SIGKILL'), 2000).unref();
    await exited;
  }
}

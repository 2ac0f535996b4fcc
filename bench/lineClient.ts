/**
 * @module A minimal JSON-lines driver for benchmarks: the same cheap client for every server, so
 * the figures compare servers, not clients. Requests made in one tick (the lanes a chunk of
 * responses released) are written with one write(), as responses are by the ceiling: a client
 * that paid a system call per request would be slower than the fastest servers it measures.
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

  /** Queues one line; the lines of a tick are written together once the tick's work is done. */
  private send(message: object): void {
    if (this.outgoing.length === 0) process.nextTick(this.flush);
    this.outgoing += JSON.stringify(message) + '\n';
  }

  private readonly flush = (): void => {
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

/**
 * @module A minimal JSON-lines driver for benchmarks: the same cheap client for every server, so
 * the figures compare servers, not clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** One spawned server and its pending requests. */
export class LineClient {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private nextId = 1;
  private buffer = '';
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
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
      if (message.id === undefined) continue;
      const resolve = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) throw new Error(`server error: ${JSON.stringify(message.error)}`);
      resolve?.(message.result);
    }
  }

  /** Sends one request; resolves with its result. */
  request(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin?.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  /** initialize + initialized. */
  async initialize(): Promise<void> {
    await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    });
    this.child.stdin?.write(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n',
    );
  }

  /** Resident set size of the server process now, and its peak, in MiB (Linux /proc). */
  memory(): { rssMiB: number; peakMiB: number } {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  }

  /** Ends the process and waits for it. */
  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin?.end();
    setTimeout(() => this.child.kill('SIGKILL'), 2000).unref();
    await exited;
  }
}

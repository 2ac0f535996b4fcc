/**
 * Issue 9: stdio memory was unbounded under a slow reader. `ctx.progress()` and `ctx.log` are
 * fire-and-forget: with stdout unread, 100,000 progress messages of 1 KB took the server from 59
 * to 331 MiB. What waits for the reader is now bounded: progress is coalesced per token (the
 * latest value wins), log messages beyond a bound are dropped (and the client is told once), and
 * responses are never dropped.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server.js';
import { StdioServerTransport } from '../../src/stdio.js';
import { Outbox } from '../../src/transports/outbox.js';

interface Line {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** Reads every line written so far, then everything until `until` says stop. */
async function readAll(stream: PassThrough, until: (lines: Line[]) => boolean): Promise<Line[]> {
  const lines: Line[] = [];
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stuck after ${lines.length} lines`)), 20_000);
    stream.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffered.slice(0, nl)) as Line);
        buffered = buffered.slice(nl + 1);
      }
      if (until(lines)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return lines;
}

describe('a client that stops reading stdout', () => {
  it('keeps memory bounded: progress coalesced, logs capped, the response kept', async () => {
    const server = new McpServer({ name: 'chatty', version: '1' });
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    server.registerTool('flood', {}, async (_args, ctx) => {
      const pad = 'p'.repeat(1000);
      for (let i = 1; i <= 100_000; i++) {
        ctx.progress(i, { total: 100_000, message: pad });
        if (i % 100 === 0) ctx.log.info(`step ${i} ${pad}`);
        if (i % 10_000 === 0) await new Promise((r) => setImmediate(r));
      }
      finished();
      return 'flooded';
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 16 * 1024 });
    await server.connect(new StdioServerTransport({ stdin, stdout }));
    const send = (m: unknown) => stdin.write(JSON.stringify(m) + '\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'info' } });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'flood', arguments: {}, _meta: { progressToken: 'p1' } },
    });
    await done;
    // Nobody has read stdout: what the stream buffers stays near its high-water mark.
    expect(stdout.writableLength).toBeLessThan(64 * 1024);
    const lines = await readAll(stdout, (all) => all.some((l) => l.id === 3));
    const progress = lines.filter((l) => l.method === 'notifications/progress');
    const logs = lines.filter((l) => l.method === 'notifications/message');
    expect(progress.length).toBeLessThan(1000); // 100,000 reported, coalesced while waiting
    expect(progress.at(-1)?.params).toMatchObject({ progressToken: 'p1', progress: 100_000 });
    const values = progress.map((l) => l.params?.['progress'] as number);
    expect(values).toEqual([...values].sort((a, b) => a - b)); // in order, never backwards
    expect(logs.length).toBeLessThanOrEqual(102);
    expect(logs.at(-1)?.params).toMatchObject({
      level: 'warning',
      data: expect.stringMatching(/^\d+ log message\(s\) were dropped/),
    });
    const response = lines.find((l) => l.id === 3);
    expect(response?.result).toMatchObject({ content: [{ type: 'text', text: 'flooded' }] });
    expect(lines.indexOf(response as Line)).toBeGreaterThan(lines.indexOf(progress.at(-1) as Line));
    await server.close();
  }, 60_000);
});

describe('Outbox', () => {
  const progress = (token: string, value: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/progress',
    params: { progressToken: token, progress: value },
  });
  const log = (n: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/message',
    params: { level: 'info', data: n },
  });
  const response = (id: number) => ({ jsonrpc: '2.0' as const, id, result: {} });

  it('keeps order, the latest progress per token in the place of the first, every response', () => {
    const box = new Outbox(2);
    box.hold(progress('a', 1));
    box.hold(log(1));
    box.hold(progress('b', 1));
    box.hold(progress('a', 2));
    box.hold(response(1));
    box.hold(log(2));
    expect(box.hold(log(3))).toBe(false);
    box.hold(progress('a', 3));
    box.hold(response(2));
    const written: unknown[] = [];
    expect(box.flush((m) => (written.push(m), true))).toBe(true);
    expect(written).toEqual([
      progress('a', 3),
      log(1),
      progress('b', 1),
      response(1),
      log(2),
      response(2),
      expect.objectContaining({ params: expect.objectContaining({ level: 'warning' }) }),
    ]);
    expect(box.size).toBe(0);
  });

  it('stops flushing where the writer congests and carries on later', () => {
    const box = new Outbox();
    for (let i = 1; i <= 5; i++) box.hold(response(i));
    const written: unknown[] = [];
    expect(box.flush((m) => (written.push(m), written.length < 2))).toBe(false);
    expect(box.size).toBe(3);
    box.hold(progress('x', 1));
    box.hold(progress('x', 2));
    expect(box.flush((m) => (written.push(m), true))).toBe(true);
    expect(written).toEqual([...[1, 2, 3, 4, 5].map(response), progress('x', 2)]);
  });
});

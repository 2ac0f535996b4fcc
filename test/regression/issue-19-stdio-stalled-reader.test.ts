/**
 * Issue 19, stdio: "100,000 progress notifications to a reader that does not read: the outbox
 * holds one coalesced message, yet the server's heap grows ~1 KB per notification", because
 * `StdioServerTransport.send()` returned a new promise per held message and kept its resolver in
 * an unbounded array until stdout drained, and `Connection.notify()` awaited it. A held message is
 * accepted: send() settles at once, so what the server keeps while the reader stalls no longer
 * depends on how many messages were sent. Measured in this process (a real stdio transport over
 * a pipe nobody reads), the heap after a full collection, after 20,000 and after 100,000
 * notifications; then the reader reads and gets the latest progress and the response.
 */
import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server.js';
import { StdioServerTransport } from '../../src/stdio.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use once everything unreachable is collected. */
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

const TOTAL = 100_000;
const FIRST = 20_000;

describe('issue 19: a stdio client that stops reading', () => {
  it('the server keeps the same memory after 20,000 and after 100,000 progress notifications', async () => {
    const heaps = new Map<number, number>();
    const server = new McpServer({ name: 'stalled', version: '1' });
    server.registerTool('flood', {}, async (_args, ctx) => {
      const message = 'step '.repeat(20);
      let sent = 0;
      for (const upTo of [FIRST, TOTAL]) {
        while (sent < upTo) {
          ctx.progress(++sent, { total: TOTAL, message });
          if (sent % 1000 === 0) await new Promise((r) => setImmediate(r));
        }
        heaps.set(sent, await settledHeap());
      }
      return 'flooded';
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 16 * 1024 });
    const transport = new StdioServerTransport({ stdin, stdout });
    await server.connect(transport);
    try {
      stdin.write(
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",' +
          '"capabilities":{},"clientInfo":{"name":"stalled","version":"1"}}}\n' +
          '{"jsonrpc":"2.0","method":"notifications/initialized"}\n' +
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"flood","arguments":{},' +
          '"_meta":{"progressToken":"p"}}}\n',
      );
      // Nobody reads stdout until the tool has sent everything (bounded: 60 s).
      for (let i = 0; i < 6000 && heaps.size < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(heaps.size).toBe(2);
      const first = heaps.get(FIRST) as number;
      const last = heaps.get(TOTAL) as number;
      const growth = last - first;
      console.log(
        `heap after ${FIRST}: ${(first / 2 ** 20).toFixed(1)} MiB, after ${TOTAL}: ` +
          `${(last / 2 ** 20).toFixed(1)} MiB (${Math.round(growth / (TOTAL - FIRST))} B per notification)`,
      );
      // 80,000 more notifications: ~80 MB before the fix; now nothing that grows with them.
      expect(growth).toBeLessThan(8 * 2 ** 20);

      // The reader reads again: the latest progress, then the response, nothing lost.
      const lines: Array<{ id?: number; method?: string; params?: { progress?: number } }> = [];
      let buffered = '';
      stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          lines.push(JSON.parse(buffered.slice(0, nl)) as (typeof lines)[number]);
          buffered = buffered.slice(nl + 1);
        }
      });
      for (let i = 0; i < 1000 && !lines.some((l) => l.id === 1); i++)
        await new Promise((r) => setTimeout(r, 10));
      const progress = lines.filter((l) => l.method === 'notifications/progress');
      expect(progress.at(-1)?.params?.progress).toBe(TOTAL);
      expect(lines.filter((l) => l.id === 1)).toHaveLength(1);
      expect(lines.findIndex((l) => l.id === 1)).toBeGreaterThan(lines.indexOf(progress.at(-1)!));
    } finally {
      await server.close();
    }
  });
});

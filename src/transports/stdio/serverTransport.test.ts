import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sleep } from '../../../test/support/scriptedTransport.js';
import { McpServer } from '../../server.js';
import { StdioServerTransport } from './serverTransport.js';

function lines(stream: PassThrough): string[] {
  const out: string[] = [];
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      out.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  return out;
}

const init =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n';

describe('StdioServerTransport', () => {
  it('serves newline-delimited messages and writes only JSON-RPC lines', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('hi', {}, () => 'hello');
    await server.connect(new StdioServerTransport({ stdin, stdout }));
    stdin.write(init);
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hi"}}\r\n');
    stdin.write('not json\n');
    stdin.write(Buffer.from([0xc3, 0x28, 0x0a]));
    stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await sleep(30);
    const parsed = out.map(
      (l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: { code: number } },
    );
    // Responses may overtake one another; what matters is that each arrives once.
    expect(parsed).toHaveLength(5);
    const byId = (id: unknown) => parsed.filter((m) => m.id === id);
    expect(byId(1)[0]?.result).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(byId(2)).toHaveLength(1);
    expect(byId(undefined).map((m) => m.error?.code)).toEqual([-32700, -32700]);
  });

  it('accepts a literal U+FFFD in valid UTF-8 but refuses bytes that only decode to it', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool(
      'echo',
      { inputSchema: { type: 'object', properties: { m: { type: 'string' } } } as const },
      ({ m }) => m ?? '',
    );
    await server.connect(new StdioServerTransport({ stdin, stdout }));
    stdin.write(init);
    stdin.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"m":"a\uFFFDb \u00e9"}}}\n',
    );
    stdin.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":2,"method":"ping","x":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}\n'),
      ]),
    );
    await sleep(30);
    const parsed = out.slice(1).map(
      (l) =>
        JSON.parse(l) as {
          id?: number;
          result?: { content: Array<{ text: string }> };
          error?: { code: number };
        },
    );
    expect(parsed.find((m) => m.id === 1)?.result?.content[0]?.text).toBe('a\uFFFDb \u00e9');
    expect(parsed.find((m) => m.id === undefined)?.error?.code).toBe(-32700);
    expect(parsed.some((m) => m.id === 2)).toBe(false);
  });

  it('answers an oversized request with an error addressed to its id, then keeps serving', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const server = new McpServer({ name: 's', version: '1' });
    await server.connect(new StdioServerTransport({ stdin, stdout, maxMessageBytes: 1024 }));
    stdin.write(init);
    stdin.write(
      `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"x","arguments":{"pad":"${'a'.repeat(5000)}"}}}\n`,
    );
    stdin.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await sleep(30);
    expect(JSON.parse(out[1] ?? '')).toMatchObject({
      id: 'big',
      error: { code: -32600, message: expect.stringContaining('1024-byte limit') },
    });
    expect(JSON.parse(out[2] ?? '')).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('stops reading stdin while stdout is full and resumes on drain, losing nothing', async () => {
    const stdin = new PassThrough();
    const written: string[] = [];
    let release: (() => void) | undefined;
    const stdout = new Writable({
      highWaterMark: 256,
      write(chunk: Buffer, _enc, callback) {
        written.push(chunk.toString());
        // Hold every write until the test releases the reader.
        release = () => callback();
      },
    });
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('big', {}, () => 'x'.repeat(1000));
    await server.connect(new StdioServerTransport({ stdin, stdout }));
    stdin.write(init);
    for (let i = 1; i <= 50; i++)
      stdin.write(`{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"big"}}\n`);
    await sleep(50);
    expect(stdin.isPaused()).toBe(true);
    const handledWhilePaused = written.length + stdout.writableLength;
    expect(written.length).toBe(1);
    // Drain slowly: release one write at a time until all 51 responses are out.
    for (let guard = 0; guard < 500 && written.length < 51; guard++) {
      release?.();
      await sleep(1);
    }
    expect(handledWhilePaused).toBeGreaterThan(0);
    expect(
      written
        .join('')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: number }).id),
    ).toEqual([...Array(51).keys()]);
  });
});

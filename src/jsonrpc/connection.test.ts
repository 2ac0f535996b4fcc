import { describe, expect, it, vi } from 'vitest';
import { ScriptedTransport, sleep } from '../../test/support/scriptedTransport.js';
import { createLinkedPair } from '../transports/memory.js';
import { Connection, type RequestHandler } from './connection.js';
import { ErrorCode, LocalError, RpcError } from './errors.js';

function echoHandler(): RequestHandler {
  return (request) => {
    if (request.method === 'echo') return { echoed: request.params ?? {} };
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  };
}

async function scripted(handler: RequestHandler = echoHandler(), batches = false) {
  const transport = new ScriptedTransport();
  const notifications: string[] = [];
  const connection = new Connection(
    transport,
    { request: handler, notification: (n) => notifications.push(n.method) },
    { batchesAllowed: () => batches, maxInFlight: 4, maxQueued: 2 },
  );
  await connection.start();
  return { transport, connection, notifications };
}

describe('Connection: malformed input is answered and the connection keeps serving', () => {
  const cases: Array<[string, string, number, string | number | null]> = [
    ['malformed JSON', '{"jsonrpc":"2.0",', ErrorCode.ParseError, null],
    ['a non-object message', '42', ErrorCode.InvalidRequest, null],
    ['a string message', '"hello"', ErrorCode.InvalidRequest, null],
    [
      'a wrong jsonrpc value',
      '{"jsonrpc":"1.0","id":1,"method":"echo"}',
      ErrorCode.InvalidRequest,
      1,
    ],
    ['a missing jsonrpc', '{"id":2,"method":"echo"}', ErrorCode.InvalidRequest, 2],
    ['a null id', '{"jsonrpc":"2.0","id":null,"method":"echo"}', ErrorCode.InvalidRequest, null],
    [
      'an object id',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"echo"}',
      ErrorCode.InvalidRequest,
      null,
    ],
    [
      'a fractional id',
      '{"jsonrpc":"2.0","id":1.5,"method":"echo"}',
      ErrorCode.InvalidRequest,
      null,
    ],
    ['a non-string method', '{"jsonrpc":"2.0","id":3,"method":7}', ErrorCode.InvalidRequest, 3],
    [
      'array params',
      '{"jsonrpc":"2.0","id":4,"method":"echo","params":[1]}',
      ErrorCode.InvalidRequest,
      4,
    ],
    [
      'string params',
      '{"jsonrpc":"2.0","id":5,"method":"echo","params":"x"}',
      ErrorCode.InvalidRequest,
      5,
    ],
  ];
  for (const [label, text, code, id] of cases) {
    it(`answers ${label} with ${code}`, async () => {
      const handler = vi.fn(echoHandler());
      const { transport } = await scripted(handler);
      transport.injectText(text);
      const reply = await transport.next();
      expect(reply).toEqual({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
      expect(handler).not.toHaveBeenCalled();
      transport.inject({ jsonrpc: '2.0', id: 99, method: 'echo', params: { ok: true } });
      expect(await transport.next()).toEqual({
        jsonrpc: '2.0',
        id: 99,
        result: { echoed: { ok: true } },
      });
    });
  }

  it('omits the id of an unreadable request when asked to (MCP 2025-11-25)', async () => {
    const transport = new ScriptedTransport();
    const connection = new Connection(
      transport,
      { request: echoHandler(), notification: () => {} },
      { omitUnreadableErrorId: () => true },
    );
    await connection.start();
    transport.injectText('[');
    expect(await transport.next()).toEqual({
      jsonrpc: '2.0',
      error: { code: ErrorCode.ParseError, message: expect.any(String) },
    });
  });

  it('refuses a message nested deeper than the limit, addressing the error to its id', async () => {
    const { transport } = await scripted();
    const deep =
      '{"jsonrpc":"2.0","id":7,"method":"echo","params":{"a":' +
      '['.repeat(80) +
      ']'.repeat(80) +
      '}}';
    transport.injectText(deep);
    expect(await transport.next()).toMatchObject({
      id: 7,
      error: { code: ErrorCode.InvalidRequest },
    });
  });

  it('answers an unknown method with -32601 and ignores an unknown notification', async () => {
    const { transport, notifications } = await scripted();
    transport.inject({ jsonrpc: '2.0', id: 1, method: 'nope' });
    expect(await transport.next()).toMatchObject({
      id: 1,
      error: { code: ErrorCode.MethodNotFound },
    });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/unknown' });
    expect(await transport.quiet()).toEqual([]);
    expect(notifications).toEqual(['notifications/unknown']);
  });

  it('ignores a response to an unknown id and an invalid response', async () => {
    const { transport } = await scripted();
    transport.inject({ jsonrpc: '2.0', id: 12345, result: {} });
    transport.inject({ jsonrpc: '2.0', id: 5, result: 'not an object' });
    expect(await transport.quiet()).toEqual([]);
  });

  it('turns a thrown non-RpcError into -32603 without its message or stack', async () => {
    const { transport } = await scripted(() => {
      throw new Error('database password is hunter2');
    });
    transport.inject({ jsonrpc: '2.0', id: 1, method: 'x' });
    const reply = await transport.next();
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(JSON.stringify(reply)).not.toContain('hunter2');
  });

  it('keeps __proto__ keys as data and never changes a prototype', async () => {
    let seen: Record<string, unknown> | undefined;
    const { transport } = await scripted((request) => {
      seen = request.params;
      return {};
    });
    transport.injectText(
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"polluted":true},"A":1,"a":2}}',
    );
    await transport.next();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    expect(Object.keys(seen ?? {})).toEqual(['__proto__', 'A', 'a']);
  });

  it('refuses a request whose id is already in flight', async () => {
    const { transport } = await scripted(() => new Promise(() => {}));
    transport.inject({ jsonrpc: '2.0', id: 'same', method: 'slow' });
    transport.inject({ jsonrpc: '2.0', id: 'same', method: 'slow' });
    expect(await transport.next()).toMatchObject({
      id: 'same',
      error: { code: ErrorCode.InvalidRequest },
    });
  });

  it('runs at most maxInFlight handlers, queues the next ones in order, refuses beyond the queue', async () => {
    const releases: Array<() => void> = [];
    const started: number[] = [];
    const { transport } = await scripted((request) => {
      started.push(request.id as number);
      return new Promise((resolve) => releases.push(() => resolve({ done: request.id })));
    });
    // 4 run, 2 wait (maxQueued 2), the 7th is refused: this transport cannot stop reading.
    for (let i = 1; i <= 7; i++) transport.inject({ jsonrpc: '2.0', id: i, method: 'slow' });
    expect(await transport.next()).toMatchObject({
      id: 7,
      error: {
        code: ErrorCode.ServerBusy,
        message: expect.stringMatching(/2 requests are already waiting/),
      },
    });
    expect(started).toEqual([1, 2, 3, 4]);
    releases[0]?.();
    expect(await transport.next()).toMatchObject({ id: 1, result: { done: 1 } });
    expect(started).toEqual([1, 2, 3, 4, 5]); // the oldest waiting request got the slot
    for (const release of releases.slice(1)) release();
    await sleep(5);
    for (const release of releases.slice(4)) release();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(((await transport.next()) as unknown as { id: number }).id);
    expect(ids.sort()).toEqual([2, 3, 4, 5, 6]);
    transport.inject({ jsonrpc: '2.0', id: 8, method: 'slow' });
    await sleep(5);
    releases[6]?.();
    expect(await transport.next()).toMatchObject({ id: 8, result: { done: 8 } });
  });

  it('never runs a request cancelled while it waited, and answers it nothing', async () => {
    const releases: Array<() => void> = [];
    const started: number[] = [];
    const { transport } = await scripted((request) => {
      started.push(request.id as number);
      return new Promise((resolve) => releases.push(() => resolve({ done: request.id })));
    });
    for (let i = 1; i <= 5; i++) transport.inject({ jsonrpc: '2.0', id: i, method: 'slow' });
    transport.inject({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5 },
    });
    for (const release of releases.splice(0)) release();
    const ids: number[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(((await transport.next()) as unknown as { id: number }).id);
    expect(ids.sort()).toEqual([1, 2, 3, 4]);
    expect(await transport.quiet(30)).toEqual([]);
    expect(started).toEqual([1, 2, 3, 4]);
  });
});

describe('Connection: cancellation of incoming requests', () => {
  it('aborts the handler signal and sends no response', async () => {
    let signal: AbortSignal | undefined;
    const { transport } = await scripted((_r, ctx) => {
      signal = ctx.signal;
      return new Promise((resolve) => setTimeout(() => resolve({ late: true }), 30));
    });
    transport.inject({ jsonrpc: '2.0', id: 1, method: 'slow' });
    transport.inject({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'user' },
    });
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).message).toBe('user');
    expect(await transport.quiet(60)).toEqual([]);
  });

  it('ignores a cancel for an unknown or finished request, and never cancels initialize', async () => {
    let initSignal: AbortSignal | undefined;
    const { transport } = await scripted((r, ctx) => {
      if (r.method === 'initialize') {
        initSignal = ctx.signal;
        return new Promise((resolve) => setTimeout(() => resolve({ init: true }), 20));
      }
      return { ok: true };
    });
    transport.inject({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 404 },
    });
    transport.inject({ jsonrpc: '2.0', id: 1, method: 'initialize' });
    transport.inject({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    expect(initSignal?.aborted).toBe(false);
    expect(await transport.next()).toEqual({ jsonrpc: '2.0', id: 1, result: { init: true } });
  });
});

describe('Connection: outgoing requests', () => {
  it('correlates concurrent responses by id', async () => {
    const [a, b] = createLinkedPair();
    const server = new Connection(b, { request: echoHandler(), notification: () => {} });
    const client = new Connection(a, { request: echoHandler(), notification: () => {} });
    await Promise.all([server.start(), client.start()]);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.request('echo', { i })),
    );
    expect(results.map((r) => (r['echoed'] as { i: number }).i)).toEqual([...Array(20).keys()]);
  });

  it('times out, sends notifications/cancelled and ignores the late response', async () => {
    const { transport, connection } = await scripted();
    const pending = connection.request('slow', {}, { timeoutMs: 20 });
    const req = (await transport.next()) as { id: number };
    await expect(pending).rejects.toMatchObject({ name: 'LocalError', code: 'timeout' });
    expect(await transport.next()).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: req.id, reason: expect.stringContaining('timed out') },
    });
    transport.inject({ jsonrpc: '2.0', id: req.id, result: { late: true } });
    expect(await transport.quiet()).toEqual([]);
  });

  it('does not cancel a non-cancellable request (initialize) on timeout', async () => {
    const { transport, connection } = await scripted();
    const pending = connection.request('initialize', {}, { timeoutMs: 10, cancellable: false });
    await transport.next();
    await expect(pending).rejects.toBeInstanceOf(LocalError);
    expect(await transport.quiet()).toEqual([]);
  });

  it('resets the timeout on progress, but never past the maximum total time', async () => {
    const { transport, connection } = await scripted();
    // Fake clocks: on a loaded machine a real 15 ms ticker can miss a 40 ms timeout.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const updates: number[] = [];
      const started = Date.now();
      const pending = connection.request(
        'long',
        {},
        {
          timeoutMs: 40,
          maxTotalTimeoutMs: 150,
          resetTimeoutOnProgress: true,
          onprogress: (p) => updates.push(p.progress),
        },
      );
      const outcome = pending.then(
        () => undefined,
        (error: unknown) => error,
      );
      let settled = false;
      void outcome.then(() => (settled = true));
      const req = (await transport.next()) as unknown as {
        id: number;
        params: { _meta: { progressToken: number } };
      };
      const token = req.params._meta.progressToken;
      // Progress every 15 ms: the 40 ms timeout never fires, the 150 ms total does.
      for (let tick = 0; tick < 40 && !settled; tick++) {
        await vi.advanceTimersByTimeAsync(15);
        transport.inject({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: updates.length + 1 },
        });
        await Promise.resolve();
      }
      expect(await outcome).toMatchObject({
        code: 'timeout',
        message: expect.stringContaining('maximum total'),
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      expect(updates.length).toBeGreaterThan(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops progress values that do not increase', async () => {
    const { transport, connection } = await scripted();
    const updates: number[] = [];
    const pending = connection.request('long', {}, { onprogress: (p) => updates.push(p.progress) });
    const req = (await transport.next()) as { id: number };
    for (const progress of [1, 3, 2, 3, 4]) {
      transport.inject({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: req.id, progress },
      });
    }
    transport.inject({ jsonrpc: '2.0', id: req.id, result: {} });
    await pending;
    expect(updates).toEqual([1, 3, 4]);
  });

  it('aborts with the signal and tells the peer', async () => {
    const { transport, connection } = await scripted();
    const controller = new AbortController();
    const pending = connection.request('slow', {}, { signal: controller.signal });
    const req = (await transport.next()) as { id: number };
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(await transport.next()).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: req.id },
    });
  });

  it('fails pending requests and aborts in-flight handlers when the transport closes', async () => {
    let signal: AbortSignal | undefined;
    const { transport, connection } = await scripted((_r, ctx) => {
      signal = ctx.signal;
      return new Promise(() => {});
    });
    transport.inject({ jsonrpc: '2.0', id: 1, method: 'hang' });
    const pending = connection.request('slow');
    await transport.close();
    await expect(pending).rejects.toMatchObject({ code: 'closed' });
    expect(signal?.aborted).toBe(true);
    await expect(connection.request('again')).rejects.toMatchObject({ code: 'closed' });
  });

  it('fails the request whose response could not be decoded', async () => {
    const { transport, connection } = await scripted();
    const pending = connection.request('big');
    const req = (await transport.next()) as { id: number };
    const deep = `{"jsonrpc":"2.0","id":${req.id},"result":{"x":${'['.repeat(70)}${']'.repeat(70)}}}`;
    transport.injectText(deep);
    await expect(pending).rejects.toMatchObject({ code: 'message-too-large' });
  });
});

describe('Connection: batches', () => {
  it('refuses a batch when batches are not allowed', async () => {
    const handler = vi.fn(echoHandler());
    const { transport } = await scripted(handler, false);
    transport.inject([{ jsonrpc: '2.0', id: 1, method: 'echo' }]);
    expect(await transport.next()).toMatchObject({
      id: null,
      error: { code: ErrorCode.InvalidRequest },
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers a batch with one array holding the responses to its requests', async () => {
    const { transport, notifications } = await scripted(echoHandler(), true);
    transport.inject([
      { jsonrpc: '2.0', id: 1, method: 'echo', params: { n: 1 } },
      { jsonrpc: '2.0', method: 'notifications/hello' },
      { jsonrpc: '2.0', id: 2, method: 'missing' },
      { jsonrpc: '2.0', id: 3, method: 7 },
    ]);
    const reply = (await transport.next()) as unknown[];
    expect(Array.isArray(reply)).toBe(true);
    expect(reply).toHaveLength(3);
    expect(reply).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 1, result: { echoed: { n: 1 } } },
        expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32601 }) }),
        expect.objectContaining({ id: 3, error: expect.objectContaining({ code: -32600 }) }),
      ]),
    );
    expect(notifications).toEqual(['notifications/hello']);
  });

  it('sends nothing for a batch of notifications and refuses an empty batch', async () => {
    const { transport } = await scripted(echoHandler(), true);
    transport.inject([
      { jsonrpc: '2.0', method: 'a' },
      { jsonrpc: '2.0', method: 'b' },
    ]);
    expect(await transport.quiet()).toEqual([]);
    transport.inject([]);
    expect(await transport.next()).toMatchObject({ error: { code: ErrorCode.InvalidRequest } });
  });
});

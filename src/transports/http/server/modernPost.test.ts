import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  BASE,
  EventReader,
  openSession,
  post,
  postHeaders,
} from '../../../../test/support/httpHarness.js';
import { validateDefinition } from '../../../../test/support/specSchemas.js';
import { createHttpHandler } from '../../../http.js';
import { McpServer } from '../../../server.js';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function setup() {
  const server = new McpServer({ name: 'http26', version: '1' });
  const aborted: string[] = [];
  server.registerTool(
    'add',
    { inputSchema: z.object({ a: z.number(), b: z.number() }) },
    ({ a, b }) => String(a + b),
  );
  server.registerTool('steps', { inputSchema: z.object({ n: z.number() }) }, async ({ n }, ctx) => {
    for (let i = 1; i <= n; i++) {
      await new Promise((r) => setTimeout(r, 5));
      ctx.progress(i, { total: n });
    }
    return `did ${n}`;
  });
  server.registerTool('wait', {}, (_args, { signal }) => {
    return new Promise<string>((resolve) => {
      signal.addEventListener('abort', () => {
        aborted.push(String(signal.reason));
        resolve('aborted');
      });
    });
  });
  server.registerTool(
    'query',
    {
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          shard: { type: 'integer', 'x-mcp-header': 'Shard' },
          dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
          sql: { type: 'string' },
        },
      },
    },
    (args) => JSON.stringify(args),
  );
  server.registerTool('job', { execution: { taskSupport: 'required' } }, () => 'done');
  const handler = createHttpHandler(server, { onerror: () => {} });
  return { server, handler, aborted };
}

/** The headers of a 2026 request for `message`. */
function modernHeaders(message: { method: string; params?: Record<string, unknown> }) {
  const name = message.params?.['name'];
  return {
    'mcp-protocol-version': VERSION,
    'mcp-method': message.method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
  };
}

function request(id: number, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } };
}

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

describe('Streamable HTTP, revision 2026-07-28', () => {
  it('serves a POST on its own: no session, the envelope on the result', async () => {
    const { handler } = setup();
    const message = request(1, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    const response = await post(handler, message, modernHeaders(message));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = await json(response);
    expect(validateDefinition(VERSION, 'CallToolResultResponse', body)).toEqual([]);
    expect(body['result']).toMatchObject({
      content: [{ type: 'text', text: '5' }],
      resultType: 'complete',
    });
    expect(handler.sessionCount).toBe(0);
  });

  it('answers headers that disagree with the body 400 -32020, keeping the request id', async () => {
    const { handler } = setup();
    const message = request(7, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } });
    const headers = modernHeaders(message);
    const cases: Array<[string, Record<string, string>]> = [
      ['no Mcp-Method', { 'mcp-protocol-version': VERSION, 'mcp-name': 'add' }],
      ['another Mcp-Method', { ...headers, 'mcp-method': 'tools/list' }],
      ['no Mcp-Name', { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call' }],
      ['another Mcp-Name', { ...headers, 'mcp-name': 'echo' }],
      ['broken base64 name', { ...headers, 'mcp-name': '=?base64?!!!?=' }],
    ];
    for (const [what, sent] of cases) {
      const response = await post(handler, message, sent);
      expect(response.status, what).toBe(400);
      const body = await json(response);
      expect(validateDefinition(VERSION, 'HeaderMismatchError', body), what).toEqual([]);
      expect(body['id'], what).toBe(7);
    }
    // The sentinel form of the same name is the same name.
    const encoded = await post(handler, message, { ...headers, 'mcp-name': '=?base64?YWRk?=' });
    expect(encoded.status).toBe(200);
  });

  it('routes the task methods by Mcp-Name = taskId (tasks extension): 400 -32020 when it is another', async () => {
    const { handler } = setup();
    const withTasks = {
      ...META,
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
    };
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'job', arguments: {}, _meta: withTasks },
    };
    const created = (await json(await post(handler, call, modernHeaders(call))))['result'] as {
      taskId: string;
      resultType: string;
    };
    expect(created.resultType).toBe('task');
    const get = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tasks/get',
      params: { taskId: created.taskId, _meta: withTasks },
    };
    const base = { 'mcp-protocol-version': VERSION, 'mcp-method': 'tasks/get' };
    const ok = await post(handler, get, { ...base, 'mcp-name': created.taskId });
    expect(ok.status).toBe(200);
    expect((await json(ok))['result']).toMatchObject({
      taskId: created.taskId,
      resultType: 'complete',
    });
    for (const sent of [base, { ...base, 'mcp-name': 'sep-2663-wrong-task-id' }]) {
      const refused = await post(handler, get, sent);
      expect(refused.status).toBe(400);
      expect((await json(refused))['error']).toMatchObject({ code: -32020 });
    }
  });

  it('checks each Mcp-Param header against the argument it mirrors (400 -32020)', async () => {
    const { handler } = setup();
    const message = request(11, 'tools/call', {
      name: 'query',
      arguments: { region: 'eu-west', shard: 42, dry: false, sql: 'select 1' },
    });
    const base = modernHeaders(message);
    const good = {
      ...base,
      'mcp-param-region': 'eu-west',
      'mcp-param-shard': '42',
      'mcp-param-dry': 'false',
    };
    expect((await post(handler, message, good)).status).toBe(200);
    // Integers compare numerically; a value may come in the base64 sentinel form.
    const alike = {
      ...good,
      'mcp-param-shard': '42.0',
      'mcp-param-region': '=?base64?ZXUtd2VzdA==?=',
    };
    expect((await post(handler, message, alike)).status).toBe(200);
    const bad: Array<[string, Record<string, string>]> = [
      ['another region', { ...good, 'mcp-param-region': 'us-east' }],
      ['a header missing', { ...base, 'mcp-param-shard': '42', 'mcp-param-dry': 'false' }],
      ['another shard', { ...good, 'mcp-param-shard': '43' }],
      ['a shard that is no integer', { ...good, 'mcp-param-shard': '4.2e1' }],
      ['True for false', { ...good, 'mcp-param-dry': 'False' }],
      ['broken base64', { ...good, 'mcp-param-region': '=?base64?%%?=' }],
    ];
    for (const [what, headers] of bad) {
      const response = await post(handler, message, headers);
      expect(response.status, what).toBe(400);
      expect(await json(response), what).toMatchObject({ id: 11, error: { code: -32020 } });
    }
    // An argument absent (or null) has no header, and must not have one.
    const sparse = request(12, 'tools/call', {
      name: 'query',
      arguments: { region: null, sql: 'x' },
    });
    expect((await post(handler, sparse, modernHeaders(sparse))).status).toBe(200);
    const extra = await post(handler, sparse, {
      ...modernHeaders(sparse),
      'mcp-param-region': 'eu',
    });
    expect(extra.status).toBe(400);
  });

  it('answers a header version other than _meta’s 400 -32020', async () => {
    const { handler } = setup();
    const message = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    };
    const response = await post(handler, message, modernHeaders(message));
    expect(response.status).toBe(400);
    expect((await json(response))['error']).toMatchObject({ code: -32020 });
  });

  it('answers malformed _meta 400 -32602 and an unserved version 400 -32022, ids kept', async () => {
    const { handler } = setup();
    const bare = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} };
    const missing = await post(handler, bare, modernHeaders(bare));
    expect(missing.status).toBe(400);
    expect(await json(missing)).toMatchObject({ id: 3, error: { code: -32602 } });
    const future = {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/list',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    };
    const unserved = await post(handler, future, {
      ...modernHeaders(future),
      'mcp-protocol-version': '2099-01-01',
    });
    expect(unserved.status).toBe(400);
    const body = await json(unserved);
    expect(validateDefinition(VERSION, 'UnsupportedProtocolVersionError', body)).toEqual([]);
    expect(body).toMatchObject({ id: 4, error: { data: { requested: '2099-01-01' } } });
  });

  it('answers an unknown method 404 -32601, GET and DELETE 405, a notification 202, a batch 400', async () => {
    const { handler } = setup();
    const unknown = request(5, 'initialize');
    const notFound = await post(handler, unknown, modernHeaders(unknown));
    expect(notFound.status).toBe(404);
    expect(await json(notFound)).toMatchObject({ id: 5, error: { code: -32601 } });
    for (const method of ['GET', 'DELETE']) {
      const response = await handler.fetch(
        new Request(`${BASE}/mcp`, {
          method,
          headers: {
            host: '127.0.0.1:3000',
            accept: 'text/event-stream',
            'mcp-protocol-version': VERSION,
          },
        }),
      );
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    const cancel = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, _meta: META },
    };
    expect((await post(handler, cancel, modernHeaders(cancel))).status).toBe(202);
    const batch = [request(6, 'tools/list'), request(7, 'tools/list')];
    const refused = await post(handler, batch, {
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/list',
    });
    expect(refused.status).toBe(400);
  });

  it('streams the request’s notifications, then its response, unbuffered', async () => {
    const { handler } = setup();
    const message = request(8, 'tools/call', { name: 'steps', arguments: { n: 2 } });
    (message.params._meta as Record<string, unknown>)['progressToken'] = 'p';
    const response = await post(handler, message, modernHeaders(message));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const events = new EventReader(response);
    expect(await events.nextMessage()).toMatchObject({
      method: 'notifications/progress',
      params: { progress: 1 },
    });
    expect(await events.nextMessage()).toMatchObject({
      method: 'notifications/progress',
      params: { progress: 2 },
    });
    const last = await events.nextMessage();
    expect(validateDefinition(VERSION, 'CallToolResultResponse', last)).toEqual([]);
    expect(last).toMatchObject({ id: 8, result: { content: [{ text: 'did 2' }] } });
    await events.end();
  });

  it('cancels the request when the client closes it', async () => {
    const { handler, aborted } = setup();
    const message = request(9, 'tools/call', { name: 'wait' });
    const controller = new AbortController();
    const pending = handler.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'POST',
        headers: postHeaders(modernHeaders(message)),
        body: JSON.stringify(message),
        signal: controller.signal,
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toEqual([]);
    controller.abort();
    await pending;
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatch(/closed the request/);
  });

  it('serves 2025 sessions beside 2026 requests on the same endpoint', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const legacy = await post(
      handler,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 1, b: 2 } },
      },
      { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(await json(legacy)).toMatchObject({ result: { content: [{ text: '3' }] } });
    const message = request(2, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    const modern = await json(await post(handler, message, modernHeaders(message)));
    expect(modern).toMatchObject({ result: { content: [{ text: '3' }], resultType: 'complete' } });
    expect(handler.sessionCount).toBe(1);
  });
});

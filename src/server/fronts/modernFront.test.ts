import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedTransport } from '../../../test/support/scriptedTransport.js';
import { validateDefinition } from '../../../test/support/specSchemas.js';
import type { JsonObject, JsonRpcMessage } from '../../jsonrpc/types.js';
import { McpServer, type ServerOptions } from '../mcpServer.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};
const SERVER_INFO = { name: 'modern', version: '2.0.0' };

function server(options: ServerOptions = {}): McpServer {
  const s = new McpServer(SERVER_INFO, { instructions: 'Use add.', ...options });
  s.registerTool(
    'add',
    {
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    ({ a, b }) => ({ structuredContent: { sum: a + b } }),
  );
  s.registerTool('chatty', {}, async (_args, { log, progress }) => {
    log.debug('debug line');
    log.warning('warning line');
    progress(1, { total: 2 });
    return 'done';
  });
  return s;
}

async function open(s = server()) {
  const transport = new ScriptedTransport();
  const session = await s.connect(transport);
  let id = 0;
  const send = (method: string, params: JsonObject = {}, meta: JsonObject = META) => {
    id += 1;
    transport.inject({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
    return id;
  };
  return { transport, session, send };
}

/** Definitions of a JSON-RPC error object (the others define a whole message). */
const ERROR_OBJECTS = new Set(['InvalidParamsError', 'MethodNotFoundError', 'InvalidRequestError']);

/** The next message, checked against the 2026-07-28 schema as `definition`. */
async function next(transport: ScriptedTransport, definition: string): Promise<JsonObject> {
  const message = (await transport.next()) as JsonRpcMessage as unknown as JsonObject;
  if (ERROR_OBJECTS.has(definition)) {
    expect(validateDefinition('2026-07-28', 'JSONRPCErrorResponse', message)).toEqual([]);
    expect(validateDefinition('2026-07-28', definition, message['error'])).toEqual([]);
  } else expect(validateDefinition('2026-07-28', definition, message)).toEqual([]);
  return message;
}

describe('the 2026 front on a connection', () => {
  it('answers server/discover with the versions, capabilities, instructions, identity and cache hints', async () => {
    const { transport, send } = await open(server({ cacheHints: { ttlMs: 60_000 } }));
    send('server/discover');
    const response = await next(transport, 'DiscoverResultResponse');
    expect(response['result']).toEqual({
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: {
        logging: {},
        tools: { listChanged: true },
        // The server runs tasks: it offers the tasks extension.
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
      instructions: 'Use add.',
      resultType: 'complete',
      ttlMs: 60_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    });
  });

  it('serves tools/list and tools/call with the envelope, without initialize', async () => {
    const { transport, send, session } = await open();
    send('tools/list');
    const list = (await next(transport, 'ListToolsResultResponse'))['result'] as JsonObject;
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    expect((list['tools'] as Array<{ name: string }>).map((t) => t.name)).toEqual([
      'add',
      'chatty',
    ]);
    send('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    const call = (await next(transport, 'CallToolResultResponse'))['result'] as JsonObject;
    expect(call).toEqual({
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    });
    // The connection never negotiated a 2025 session.
    expect(session.initialized).toBe(false);
  });

  it('refuses a missing _meta with -32602 and an unserved version with -32022', async () => {
    const { transport, send } = await open();
    send('tools/list');
    await next(transport, 'ListToolsResultResponse');
    send('tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
    const missing = await next(transport, 'InvalidParamsError');
    expect((missing['error'] as JsonObject)['code']).toBe(-32602);
    send('tools/list', {}, { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' });
    const unsupported = await next(transport, 'UnsupportedProtocolVersionError');
    expect((unsupported['error'] as JsonObject)['data']).toEqual({
      supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      requested: '2099-01-01',
    });
  });

  it('answers the 2025 methods -32601 on a connection that opened in 2026', async () => {
    const { transport, send } = await open();
    send('server/discover');
    await next(transport, 'DiscoverResultResponse');
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'tasks/list']) {
      send(method);
      const error = await next(transport, 'MethodNotFoundError');
      expect((error['error'] as JsonObject)['code'], method).toBe(-32601);
    }
  });

  it('sends log messages only at or above the level the request set, and progress', async () => {
    const { transport, send } = await open();
    send('tools/call', { name: 'chatty' }, { ...META, progressToken: 'p' });
    // No log level in _meta: no log messages at all, progress still.
    expect(await next(transport, 'ProgressNotification')).toMatchObject({
      params: { progressToken: 'p', progress: 1, total: 2 },
    });
    await next(transport, 'CallToolResultResponse');
    send('tools/call', { name: 'chatty' }, { ...META, 'io.modelcontextprotocol/logLevel': 'info' });
    const log = await next(transport, 'LoggingMessageNotification');
    expect(log['params']).toEqual({ level: 'warning', data: 'warning line' });
    await next(transport, 'CallToolResultResponse');
    expect(await transport.quiet()).toEqual([]);
  });

  it('serves 2025 and 2026 clients side by side from the same registrations', async () => {
    const s = server();
    const modern = await open(s);
    const legacy = new ScriptedTransport();
    await s.connect(legacy);
    legacy.inject({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'l', version: '1' },
      },
    });
    expect(((await legacy.next()) as unknown as JsonObject)['result']).toMatchObject({
      protocolVersion: '2025-11-25',
    });
    legacy.inject({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 1 } },
    });
    const legacyCall = (await legacy.next()) as unknown as JsonObject;
    expect(legacyCall['result']).toEqual({
      content: [{ type: 'text', text: '{"sum":2}' }],
      structuredContent: { sum: 2 },
    });
    modern.send('tools/call', { name: 'add', arguments: { a: 1, b: 1 } });
    const modernCall = await next(modern.transport, 'CallToolResultResponse');
    expect(modernCall['result']).toMatchObject({
      structuredContent: { sum: 2 },
      resultType: 'complete',
    });
  });

  it('serves only the 2025 era when 2026-07-28 is not among the revisions', async () => {
    const { transport, send } = await open(server({ protocolVersions: ['2025-11-25'] }));
    send('server/discover');
    const error = ((await transport.next()) as unknown as JsonObject)['error'] as JsonObject;
    expect(error['code']).toBe(-32600); // "before initialize", as a 2025-only server always said
  });

  it('answers initialize -32022 naming its versions when it serves only 2026', async () => {
    const transport = new ScriptedTransport();
    await server({ protocolVersions: ['2026-07-28'] }).connect(transport);
    transport.inject({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'l', version: '1' },
      },
    });
    const error = ((await transport.next()) as unknown as JsonObject)['error'] as JsonObject;
    expect(error).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
  });
});

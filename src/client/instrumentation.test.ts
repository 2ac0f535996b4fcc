// The client's instrumentation hook: called once around every request with its id, method,
// params and a live view of the session; absent, nothing of it exists on the request path.
import { describe, expect, it } from 'vitest';
import { connect } from '../../test/support/harness.js';
import type { ConnectionOptions } from '../jsonrpc/connection.js';
import type { JsonObject } from '../jsonrpc/types.js';
import { McpServer } from '../server.js';
import type { ClientInstrumentation, ClientRequest } from './instrumentation.js';
import type { McpClient } from './mcpClient.js';

function server(seen: unknown[]) {
  const s = new McpServer({ name: 'hook', version: '1' });
  s.registerTool('echo', {}, (_args, ctx) => {
    seen.push(ctx.meta);
    return 'ok';
  });
  return s;
}

/** The options of the client's connection (white box: what the request path consults). */
function connectionOptions(client: McpClient): ConnectionOptions {
  return (client as unknown as { connection: { options: ConnectionOptions } }).connection.options;
}

describe('ClientOptions.instrument', () => {
  it('wraps every request once, with its id, method, params and the session', async () => {
    const requests: Array<Omit<ClientRequest, 'session'> & { version: string | undefined }> = [];
    const results: JsonObject[] = [];
    const instrument: ClientInstrumentation = async (request, send) => {
      requests.push({
        id: request.id,
        method: request.method,
        params: request.params,
        version: request.session.protocolVersion,
      });
      expect(request.session.networkTransport).toBe('inproc');
      expect(request.session.sessionId).toBeUndefined(); // the in-memory pair has none
      const result = await send(request.params);
      results.push(result);
      return result;
    };
    const { client } = await connect(server([]), { client: { instrument } });
    await client.callTool('echo');
    await client.ping();
    expect(requests.map((r) => [r.id, r.method, r.version])).toEqual([
      [1, 'initialize', undefined],
      [2, 'tools/list', '2025-11-25'],
      [3, 'tools/call', '2025-11-25'],
      [4, 'ping', '2025-11-25'],
    ]);
    expect(requests[2]?.params).toEqual({ name: 'echo', arguments: {} });
    expect(results).toHaveLength(4);
    expect(results[2]).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('sends the params the hook gives, with the progress token still added', async () => {
    const seen: unknown[] = [];
    const instrument: ClientInstrumentation = (request, send) =>
      send(
        request.method === 'tools/call'
          ? { ...request.params, _meta: { traceparent: 'hook-was-here' } }
          : request.params,
      );
    const { client } = await connect(server(seen), { client: { instrument } });
    await client.callTool('echo', {}, { onprogress: () => {} });
    expect(seen).toEqual([{ traceparent: 'hook-was-here', progressToken: expect.anything() }]);
  });

  it('passes a failure of the request through the hook', async () => {
    const failures: unknown[] = [];
    const instrument: ClientInstrumentation = (request, send) =>
      send(request.params).catch((error: unknown) => {
        failures.push(error);
        throw error;
      });
    const { client } = await connect(server([]), { client: { instrument } });
    await expect(client.callTool('ghost')).rejects.toMatchObject({ code: -32602 });
    expect(failures).toMatchObject([{ code: -32602 }]);
  });

  it('leaves the request path untouched when absent: no interceptor is created', async () => {
    const { client } = await connect(server([]));
    expect(connectionOptions(client)).not.toHaveProperty('interceptRequest');
    const hooked = await connect(server([]), {
      client: { instrument: (r, send) => send(r.params) },
    });
    expect(typeof connectionOptions(hooked.client).interceptRequest).toBe('function');
  });
});

import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../../test/support/scriptedTransport.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { Discover, Initialize, Listen, UpdateTask } from '../../protocol/methods.js';
import { McpServer } from '../mcpServer.js';

async function negotiated(middleware: boolean) {
  const server = new McpServer({ name: 'front', version: '1' });
  server.registerTool('noop', {}, () => 'ok');
  const seen: string[] = [];
  if (middleware)
    server.use((request, next) => {
      seen.push(request.method);
      return next();
    });
  const transport = new ScriptedTransport();
  const session = await server.connect(transport);
  transport.inject({
    jsonrpc: '2.0',
    id: 0,
    method: Initialize.method,
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c' } },
  });
  await transport.next();
  return { transport, session, seen };
}

describe('the 2025 front', () => {
  for (const middleware of [false, true]) {
    it(`answers the 2026-only methods -32601 by absence (${middleware ? 'with' : 'no'} middleware)`, async () => {
      const { transport, seen } = await negotiated(middleware);
      for (const method of [Discover.method, Listen.method, UpdateTask.method]) {
        transport.inject({ jsonrpc: '2.0', id: method, method, params: {} });
        expect(await transport.next()).toMatchObject({
          id: method,
          error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` },
        });
      }
      // Middleware see them before they are refused, as they see any unknown method.
      expect(seen).toEqual(middleware ? [Discover.method, Listen.method, UpdateTask.method] : []);
    });
  }

  it('gives its handlers the negotiated revision’s profile', async () => {
    const { session } = await negotiated(false);
    expect(session.profile.revision).toBe('2025-11-25');
    expect(session.profile.features.tasks).toBe(true);
    expect(session.info.protocolVersion).toBe(session.profile.revision);
  });
});

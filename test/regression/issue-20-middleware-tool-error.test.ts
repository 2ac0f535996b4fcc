/**
 * Issue 20, middleware: a `ToolError` thrown by an inner middleware reached the outer middleware
 * as an exception, while the client received an `isError` result. An outer middleware (timing,
 * auditing, OpenTelemetry) counted a failed call the model could read as a crash. The error now
 * becomes that result where it is thrown: every middleware outside sees, from `next()`, exactly
 * what the client receives, at every revision, for server-wide middleware and a tool's own. Its
 * message is sanitised like a handler's `ToolError` (a middleware's was sent as it was, escape
 * sequences included). An `RpcError` is still a protocol error, seen as one on the way out.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, RpcError } from '../../src/jsonrpc/errors.js';
import type { JsonObject } from '../../src/jsonrpc/types.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../src/protocol/versions.js';
import { McpServer, ToolError, type Middleware } from '../../src/server.js';
import { connect } from '../support/harness.js';

/** What an outer middleware saw come back from `next()`. */
type Seen = { result: JsonObject } | { threw: string };

/** Records what `next()` gave back for requests of `method`. */
function observer(seen: Seen[], method = 'tools/call'): Middleware {
  return async (request, next) => {
    if (request.method !== method) return next();
    try {
      const result = await next();
      seen.push({ result: structuredClone(result) });
      return result;
    } catch (error) {
      seen.push({ threw: error instanceof Error ? `${error.name}: ${error.message}` : 'thrown' });
      throw error;
    }
  };
}

const refuse: Middleware = (request, next) => {
  if (request.method === 'tools/call') throw new ToolError('Refused by policy \u001b[31mred');
  return next(); // the client lists the tools before its first call
};

describe('issue 20: outer middleware see what the client receives when an inner one throws ToolError', () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    it(`two server-wide middleware, at ${version}`, async () => {
      const server = new McpServer({ name: 'mw', version: '1' });
      let ran = false;
      server.registerTool('echo', {}, () => {
        ran = true;
        return 'echo';
      });
      const seen: Seen[] = [];
      server.use(observer(seen), { before: 'access' }); // outside every stage
      server.use(refuse); // innermost: inside sanitize
      const c = await connect(server, { version });
      const result = await c.client.callTool('echo');
      expect(ran).toBe(false);
      expect(result).toEqual({
        // Sanitised like any error result on its way out: the escape sequence is gone.
        content: [{ type: 'text', text: 'Refused by policy red' }],
        isError: true,
      });
      expect(seen).toEqual([{ result }]);
    });
  }

  it('two middleware of the tool itself, and server-wide ones around them', async () => {
    const server = new McpServer({ name: 'mw', version: '1' });
    const ownSeen: Seen[] = [];
    const serverSeen: Seen[] = [];
    server.registerTool('echo', { middleware: [observer(ownSeen), refuse] }, () => 'echo');
    server.use(observer(serverSeen));
    const c = await connect(server, { version: '2025-06-18' });
    const result = await c.client.callTool('echo');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Refused by policy red' }],
      isError: true,
    });
    expect(serverSeen).toEqual([{ result }]);
    expect(ownSeen).toEqual([{ result }]);
  });

  it('a ToolError thrown after next() answered is the result outer middleware see too', async () => {
    const server = new McpServer({ name: 'mw', version: '1' });
    server.registerTool('echo', {}, () => 'echo');
    const seen: Seen[] = [];
    server.use(observer(seen), { before: 'rateLimit' });
    server.use(async (request, next) => {
      const answer = await next();
      if (request.method === 'tools/call') throw new ToolError('The answer was withheld');
      return answer;
    });
    const c = await connect(server, { version: '2024-11-05' });
    const result = await c.client.callTool('echo');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'The answer was withheld' }],
      isError: true,
    });
    expect(seen).toEqual([{ result }]);
  });

  it('an RpcError stays a protocol error, seen as one by outer middleware', async () => {
    const server = new McpServer({ name: 'mw', version: '1' });
    server.registerTool('echo', {}, () => 'echo');
    const seen: Seen[] = [];
    server.use(observer(seen));
    server.use((request, next) => {
      if (request.method === 'tools/call')
        throw new RpcError(ErrorCode.InvalidParams, 'Not for you');
      return next();
    });
    const c = await connect(server);
    await expect(c.client.callTool('echo')).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Not for you',
    });
    expect(seen).toEqual([{ threw: 'RpcError: Not for you' }]);
  });

  it('a ToolError outside tools/call is still an internal error, seen as thrown', async () => {
    const server = new McpServer({ name: 'mw', version: '1' }, { onerror: () => {} });
    server.registerTool('echo', {}, () => 'echo');
    const seen: Seen[] = [];
    server.use(observer(seen, 'tools/list'));
    server.use((request, next) => {
      if (request.method === 'tools/list') throw new ToolError('no list');
      return next();
    });
    const c = await connect(server);
    await expect(c.client.listTools()).rejects.toMatchObject({ code: ErrorCode.InternalError });
    expect(seen).toEqual([{ threw: 'ToolError: no list' }]);
  });
});

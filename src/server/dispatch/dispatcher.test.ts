import { describe, expect, it } from 'vitest';
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/types.js';
import type { Era } from '../../protocol/eras/era.js';
import { era2025 } from '../../protocol/eras/rev2025/era.js';
import { CallTool, Discover, ListTools, Ping, registryFor } from '../../protocol/methods.js';
import type { MiddlewareRequest } from '../middleware/middleware.js';
import { MiddlewareChain } from '../middleware/middlewareChain.js';
import type { SessionPort } from '../toolContext.js';
import { Dispatcher } from './dispatcher.js';
import { bind, handlerTable } from './handlerTable.js';
import type { RequestScope } from './requestScope.js';

const profile = era2025.profile('2025-11-25');
if (!profile) throw new Error('no profile');

const session = {
  id: 's1',
  protocolVersion: '2025-11-25' as const,
  clientInfo: { name: 'c', version: '1' },
  clientCapabilities: {},
};

const scope: RequestScope = {
  era: era2025,
  profile,
  clientCapabilities: {},
  session,
  port: { networkTransport: 'inproc', network: undefined } as unknown as SessionPort,
  identityOf: () => ({ id: 'alice' }),
  clientAddressOf: () => '10.0.0.1',
  tasksOffered: () => false,
};

const context = {
  id: 1,
  info: undefined,
  cancellation: { signal: new AbortController().signal },
} as unknown as IncomingRequestContext;

const request = (method: string, params?: JsonObject): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  ...(params ? { params } : {}),
});

function rpcCode(thrown: () => unknown): number | undefined {
  try {
    thrown();
  } catch (error) {
    return error instanceof RpcError ? error.code : undefined;
  }
  return undefined;
}

const pong = { pong: true };
const bindings = [
  bind(Ping, { serve: () => pong }),
  bind(Discover, { serve: () => ({ discovered: true }) }),
];

describe('handlerTable', () => {
  it('leaves out the methods an era lacks', () => {
    const table = handlerTable(era2025, bindings);
    expect(table.has(Ping.method)).toBe(true);
    expect(table.has(Discover.method)).toBe(false);
    const modern: Era = { ...era2025, name: '2026', methods: registryFor('2026') };
    expect([...handlerTable(modern, bindings).keys()]).toEqual([Discover.method]);
  });

  it('refuses two handlers of one method', () => {
    expect(() => handlerTable(era2025, [...bindings, bind(Ping, { serve: () => ({}) })])).toThrow(
      'Two handlers for ping',
    );
  });
});

describe('Dispatcher', () => {
  it('answers a method absent from the table with -32601', () => {
    const dispatcher = new Dispatcher(handlerTable(era2025, bindings), new MiddlewareChain());
    expect(rpcCode(() => dispatcher.dispatch(request(Discover.method), context, scope))).toBe(
      ErrorCode.MethodNotFound,
    );
    expect(rpcCode(() => dispatcher.dispatch(request('nope/nothing'), context, scope))).toBe(
      ErrorCode.MethodNotFound,
    );
  });

  it('without middleware, returns the handler’s own answer: no promise on the way', () => {
    const dispatcher = new Dispatcher(handlerTable(era2025, bindings), new MiddlewareChain());
    expect(dispatcher.dispatch(request(Ping.method), context, scope)).toBe(pong);
  });

  it('runs every request through the middleware, at one call site, with the scope’s facts', async () => {
    const chain = new MiddlewareChain();
    const seen: MiddlewareRequest[] = [];
    chain.add((req, next) => {
      seen.push(req);
      return next();
    });
    const tool = { name: 'echo', inputSchema: { type: 'object' as const } };
    const table = handlerTable(era2025, [
      ...bindings,
      bind(ListTools, { serve: () => ({ tools: [] }) }),
      bind(CallTool, {
        serve: () => ({ content: [] }),
        toolOf: () => tool,
        chained: (_chain, call) => Promise.resolve({ chainedFor: call.policy.method }),
      }),
    ]);
    const dispatcher = new Dispatcher(table, chain);
    await expect(dispatcher.dispatch(request(Ping.method), context, scope)).resolves.toBe(pong);
    await expect(
      dispatcher.dispatch(request(CallTool.method, { name: 'echo' }), context, scope),
    ).resolves.toEqual({ chainedFor: CallTool.method });
    await expect(
      dispatcher.dispatch(request('nope/nothing'), context, scope) as Promise<JsonObject>,
    ).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    expect(seen.map((r) => r.method)).toEqual([Ping.method, 'nope/nothing']);
    expect(seen[0]).toMatchObject({
      session,
      identity: { id: 'alice' },
      clientAddress: '10.0.0.1',
      networkTransport: 'inproc',
      tool: undefined,
    });
  });

  it('shows middleware the tool a request names', async () => {
    const chain = new MiddlewareChain();
    let seen: MiddlewareRequest | undefined;
    chain.add((req, next) => {
      seen = req;
      return next();
    });
    const tool = { name: 'echo', inputSchema: { type: 'object' as const } };
    const table = handlerTable(era2025, [
      bind(ListTools, { serve: () => ({ tools: [] }), toolOf: () => tool }),
    ]);
    await new Dispatcher(table, chain).dispatch(request(ListTools.method), context, scope);
    expect(seen?.tool).toBe(tool);
  });
});

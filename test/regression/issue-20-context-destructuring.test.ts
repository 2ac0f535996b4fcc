/**
 * Issue 20, the handler context can be destructured: `async (args, { signal, progress }) => …`
 * crashed the tool ("Cannot read properties of undefined (reading 'active')"), because the
 * context's methods read `this`. Every member of the context, and of the request a middleware
 * sees, now works when taken off its object; the types say so too (`this: void`), so a linter's
 * unbound-method rule has nothing to object to.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Identity, PeerAddress, TransportNetwork } from '../../src/jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../../src/jsonrpc/types.js';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
  LoggingMessageParams,
  Meta,
  Tool,
} from '../../src/protocol/types.js';
import {
  McpServer,
  type ClientRequestOptions,
  type MiddlewareRequest,
  type SessionInfo,
  type ToolContext,
} from '../../src/server.js';
import { connect } from '../support/harness.js';

const text = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

describe('issue 20: every member of the handler context works when destructured', () => {
  it('a handler destructures the whole context and uses each member', async () => {
    const server = new McpServer({ name: 'ctx', version: '1' });
    server.registerTool(
      'everything',
      { inputSchema: { type: 'object', properties: {} } },
      async (
        _args,
        {
          signal,
          requestId,
          toolName,
          meta,
          session,
          identity,
          log,
          progress,
          sample,
          elicit,
          listRoots,
          closeStream,
        },
      ) => {
        const { info } = log; // and the logger's own members
        info('started', 'ctx');
        log.debug('below the level: not sent');
        progress(1, { total: 2, message: 'half way' });
        const sampled = await sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
          maxTokens: 5,
        });
        const elicited = await elicit({
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        const { roots } = await listRoots();
        closeStream(); // nothing to close in memory: it must simply not throw
        progress(2, { total: 2 });
        return JSON.stringify({
          aborted: signal.aborted,
          requestId,
          toolName,
          progressToken: meta?.['progressToken'],
          revision: session.protocolVersion,
          identity: identity?.id,
          model: sampled.model,
          elicited,
          roots: roots.map((r) => r.uri),
        });
      },
    );
    const logs: LoggingMessageParams[] = [];
    const c = await connect(server, {
      identity: { id: 'alice' },
      client: {
        onLog: (message) => logs.push(message),
        handlers: {
          sampling: () => ({
            role: 'assistant',
            content: { type: 'text', text: 'yo' },
            model: 'm1',
          }),
          elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
          roots: () => [{ uri: 'file:///work', name: 'work' }],
        },
      },
    });
    await c.client.setLoggingLevel('info');
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await c.client.callTool(
      'everything',
      {},
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeUndefined();
    const seen = JSON.parse(text(result)) as Record<string, unknown>;
    expect(seen).toMatchObject({
      aborted: false,
      toolName: 'everything',
      revision: '2025-11-25',
      identity: 'alice',
      model: 'm1',
      elicited: { action: 'accept', content: { name: 'Ada' } },
      roots: ['file:///work'],
    });
    expect(typeof seen['requestId']).toBe('number');
    expect(seen['progressToken']).toBeDefined();
    expect(progress).toEqual([
      expect.objectContaining({ progress: 1, total: 2, message: 'half way' }),
      expect.objectContaining({ progress: 2, total: 2 }),
    ]);
    expect(logs).toEqual([{ level: 'info', logger: 'ctx', data: 'started' }]);
  });

  it('a destructured member still follows the call: cancellation reaches a destructured signal', async () => {
    const server = new McpServer({ name: 'ctx', version: '1' });
    let aborted!: (reason: unknown) => void;
    const abortedWith = new Promise<unknown>((resolve) => (aborted = resolve));
    server.registerTool('wait', {}, async (_args, { signal, progress }) => {
      progress(1);
      await new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      aborted(signal.reason);
      progress(2); // after the call ended: dropped, and no crash
      return 'cancelled';
    });
    const c = await connect(server);
    const controller = new AbortController();
    const call = c.client.callTool('wait', {}, { signal: controller.signal, onprogress: () => {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    expect(await abortedWith).toBeDefined();
  });

  it('a middleware destructures the whole request and uses each member', async () => {
    const server = new McpServer({ name: 'ctx', version: '1' });
    server.registerTool('echo', { inputSchema: { type: 'object' } }, () => 'echoed');
    const seen: Record<string, unknown>[] = [];
    server.use(
      async (
        {
          method,
          params,
          requestId,
          session,
          identity,
          clientAddress,
          networkTransport,
          network,
          peer,
          httpVersion,
          tool,
          signal,
        },
        next,
      ) => {
        const answer = await next();
        seen.push({
          method,
          name: params?.['name'],
          requestId: typeof requestId,
          session: session.id,
          identity: identity?.id,
          clientAddress,
          networkTransport,
          network,
          peer,
          httpVersion,
          tool: tool?.name,
          aborted: signal.aborted,
        });
        return answer;
      },
    );
    const c = await connect(server, { identity: { id: 'bob' } });
    expect(text(await c.client.callTool('echo'))).toBe('echoed');
    // (The client lists the tools before its first call: that request passed here too.)
    expect(seen.filter((s) => s['method'] === 'tools/call')).toEqual([
      {
        method: 'tools/call',
        name: 'echo',
        requestId: 'number',
        session: c.session.id,
        identity: 'bob',
        clientAddress: undefined,
        networkTransport: 'inproc',
        network: undefined, // in memory: no network, no peer, no HTTP
        peer: undefined,
        httpVersion: undefined,
        tool: 'echo',
        aborted: false,
      },
    ]);
  });
});

// Type level (checked by tsc): each member keeps its type when destructured, and no member that
// is a function needs `this` (its `this` is declared `void`).
describe('issue 20: the types of destructured members', () => {
  it('types each member of ToolContext', () => {
    // Every member is destructured below (a new member makes this line fail until it is).
    expectTypeOf<keyof ToolContext>().toEqualTypeOf<
      | 'signal'
      | 'requestId'
      | 'toolName'
      | 'meta'
      | 'session'
      | 'identity'
      | 'log'
      | 'progress'
      | 'sample'
      | 'elicit'
      | 'listRoots'
      | 'confirm'
      | 'closeStream'
      | 'detach'
    >();
    const handler = ({
      signal,
      requestId,
      toolName,
      meta,
      session,
      identity,
      log,
      progress,
      sample,
      elicit,
      listRoots,
      confirm,
      closeStream,
      detach,
    }: ToolContext) => {
      expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
      expectTypeOf(requestId).toEqualTypeOf<RequestId>();
      expectTypeOf(toolName).toEqualTypeOf<string>();
      expectTypeOf(meta).toEqualTypeOf<Meta | undefined>();
      expectTypeOf(session).toEqualTypeOf<SessionInfo>();
      expectTypeOf(identity).toEqualTypeOf<Identity | undefined>();
      expectTypeOf(log.info).toEqualTypeOf<(data: unknown, logger?: string) => void>();
      expectTypeOf<keyof typeof log>().toEqualTypeOf<LoggingLevel>();
      expectTypeOf(progress).thisParameter.toEqualTypeOf<void>();
      expectTypeOf(progress).parameters.toEqualTypeOf<
        [progress: number, details?: { total?: number; message?: string }]
      >();
      expectTypeOf(progress).returns.toEqualTypeOf<void>();
      expectTypeOf(sample).thisParameter.toEqualTypeOf<void>();
      expectTypeOf(sample).parameters.toEqualTypeOf<
        [params: CreateMessageParams, options?: ClientRequestOptions]
      >();
      expectTypeOf(sample).returns.toEqualTypeOf<Promise<CreateMessageResult>>();
      expectTypeOf(elicit).thisParameter.toEqualTypeOf<void>();
      expectTypeOf(elicit).parameters.toEqualTypeOf<
        [params: ElicitParams, options?: ClientRequestOptions]
      >();
      expectTypeOf(elicit).returns.toEqualTypeOf<Promise<ElicitResult>>();
      expectTypeOf(listRoots).thisParameter.toEqualTypeOf<void>();
      expectTypeOf(listRoots).parameters.toEqualTypeOf<[options?: ClientRequestOptions]>();
      expectTypeOf(listRoots).returns.toEqualTypeOf<Promise<ListRootsResult>>();
      expectTypeOf(confirm).thisParameter.toEqualTypeOf<void>();
      expectTypeOf(confirm).parameters.toEqualTypeOf<
        [message: string, options?: ClientRequestOptions]
      >();
      expectTypeOf(confirm).returns.toEqualTypeOf<Promise<boolean>>();
      expectTypeOf(closeStream).thisParameter.toEqualTypeOf<void>();
      expectTypeOf(closeStream).parameters.toEqualTypeOf<[]>();
      expectTypeOf(closeStream).returns.toEqualTypeOf<void>();
      expectTypeOf(detach).thisParameter.toEqualTypeOf<void>();
      expectTypeOf(detach).parameters.toEqualTypeOf<[]>();
      expectTypeOf(detach).returns.toEqualTypeOf<Promise<void>>();
    };
    expect(typeof handler).toBe('function');
  });

  it('types each member of MiddlewareRequest', () => {
    expectTypeOf<keyof MiddlewareRequest>().toEqualTypeOf<
      | 'method'
      | 'params'
      | 'requestId'
      | 'session'
      | 'identity'
      | 'clientAddress'
      | 'networkTransport'
      | 'network'
      | 'peer'
      | 'httpVersion'
      | 'tool'
      | 'signal'
    >();
    const middleware = ({
      method,
      params,
      requestId,
      session,
      identity,
      clientAddress,
      networkTransport,
      network,
      peer,
      httpVersion,
      tool,
      signal,
    }: MiddlewareRequest) => {
      expectTypeOf(method).toEqualTypeOf<string>();
      expectTypeOf(params).toEqualTypeOf<JsonObject | undefined>();
      expectTypeOf(requestId).toEqualTypeOf<RequestId>();
      expectTypeOf(session).toEqualTypeOf<SessionInfo>();
      expectTypeOf(identity).toEqualTypeOf<Identity | undefined>();
      expectTypeOf(clientAddress).toEqualTypeOf<string | undefined>();
      expectTypeOf(networkTransport).toEqualTypeOf<'pipe' | 'tcp' | 'inproc' | undefined>();
      expectTypeOf(network).toEqualTypeOf<TransportNetwork | undefined>();
      expectTypeOf(peer).toEqualTypeOf<PeerAddress | undefined>();
      expectTypeOf(httpVersion).toEqualTypeOf<string | undefined>();
      expectTypeOf(tool).toEqualTypeOf<Tool | undefined>();
      expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
    };
    expect(typeof middleware).toBe('function');
  });
});

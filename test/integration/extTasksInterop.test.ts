/**
 * @module Interoperability with `@modelcontextprotocol/ext-tasks` (0.2.2), the official client of
 * the tasks extension (the MCP Inspector's): it drives toolwire's server over Streamable HTTP,
 * wrapped around an SDK v2 `Client` pinned to 2026-07-28, through every task state (working,
 * input_required answered by tasks/update, completed, completed with isError, failed, cancelled),
 * with tasks kept in memory and in Redis.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  type RawClientDispatch,
} from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, MemoryTaskStore, RpcError } from '../../src/index.js';
import { createHttpHandler } from '../../src/http.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { RedisTaskStore } from '../../src/redis.js';
import { McpServer } from '../../src/server.js';
import type { TaskStore } from '../../src/tasks/taskStore.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const VERSION = '2026-07-28';
const clientInfo = { name: 'toolwire-ext-tasks-interop', version: '1.0.0' };
const clientCapabilities = { elicitation: {} };

function taskServer(store: TaskStore): McpServer {
  const server = new McpServer(
    { name: 'ext-tasks-interop', version: '1' },
    { tasks: { store, pollIntervalMs: 20 }, onerror: () => {} },
  );
  server.registerTool('quick', { execution: { taskSupport: 'required' } }, () => 'done');
  server.registerTool('failing', { execution: { taskSupport: 'required' } }, () => ({
    content: [{ type: 'text' as const, text: 'no luck' }],
    isError: true,
  }));
  server.registerTool('broken', { execution: { taskSupport: 'required' } }, () => {
    throw new RpcError(ErrorCode.InternalError, 'upstream refused');
  });
  server.registerTool('ask', { execution: { taskSupport: 'required' } }, async (_a, { elicit }) => {
    const answer = await elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return `Hello, ${String(answer.content?.['name'])}!`;
  });
  server.registerTool('forever', { execution: { taskSupport: 'required' } }, (_a, { signal }) => {
    return new Promise<string>((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason as Error)),
    );
  });
  return server;
}

/**
 * ext-tasks sends the task requests through the host (`rawDispatch`): a 2026 request is a POST of
 * its own, answered in JSON or as an SSE stream whose last event is the response.
 */
function rawDispatch(url: string): RawClientDispatch {
  let id = 0;
  return async (request, options) => {
    const { method, params } = request as { method: string; params: Record<string, unknown> };
    const name = params['name'] ?? params['taskId'];
    // The routing headers ext-tasks gives (Mcp-Name = taskId) win over ours, never doubled.
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    });
    const given = (options?.context?.headers ?? {}) as Record<string, string>;
    for (const [header, value] of Object.entries(given)) headers.set(header, value);
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: `raw-${++id}`, method, params }),
      ...(options?.signal ? { signal: options.signal } : {}),
    });
    const text = await response.text();
    const lines = text.split('\n').filter((l) => l.startsWith('data: '));
    const message = JSON.parse(lines.length > 0 ? lines.at(-1)!.slice(6) : text) as {
      result?: never;
      error?: never;
    };
    return message.error !== undefined
      ? { kind: 'error', error: message.error }
      : { kind: 'result', result: message.result ?? {} };
  };
}

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

const STORES: Array<[string, () => Promise<TaskStore>]> = [
  ['memory', async () => new MemoryTaskStore()],
  ['Redis', () => RedisTaskStore.connect({ url: redis.url, keyPrefix: `exttasks${Date.now()}:` })],
];

describe.each(STORES)(
  '@modelcontextprotocol/ext-tasks drives toolwire (tasks in %s)',
  (_name, makeStore) => {
    let listener: HttpListener;
    let store: TaskStore;
    let session: ReturnType<typeof createTaskSessionFromClient>;
    let client: Client;
    beforeAll(async () => {
      store = await makeStore();
      listener = await serveHttp(createHttpHandler(taskServer(store), { onerror: () => {} }));
      const url = listener.url;
      client = new Client(clientInfo, {
        capabilities: clientCapabilities,
        versionNegotiation: { mode: 'auto' },
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      session = createTaskSessionFromClient(client, {
        endpointId: 'toolwire',
        rawDispatch: rawDispatch(url),
        v2RequestFraming: { protocolVersion: VERSION, clientInfo, clientCapabilities },
        tools: { currentTool: () => undefined },
        onInputRequest: createApplicationInputHandler({
          elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
          sampling: async () => {
            throw new Error('no sampling here');
          },
          roots: async () => ({ roots: [] }),
        }),
      });
    }, 30_000);
    afterAll(async () => {
      await client?.close();
      await listener?.close();
      await store?.close();
    });

    it('sees the extension offered (capability exactly {})', () => {
      expect(session.capabilities.execution).toBe(true);
    });

    it('working to completed; completed with isError; failed with the JSON-RPC error', async () => {
      const quick = await session.callTool('quick', {}, { task: { preference: 'require' } });
      expect(quick.kind).toBe('task');
      expect(await quick.result()).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'done' }] },
      });
      const failing = await session.callTool('failing', {}, { task: { preference: 'require' } });
      expect(await failing.result()).toMatchObject({
        status: 'completed',
        result: { isError: true, content: [{ type: 'text', text: 'no luck' }] },
      });
      const broken = await session.callTool('broken', {}, { task: { preference: 'require' } });
      const outcome = await broken.result();
      expect(outcome.status).toBe('failed');
      const cause = (outcome as { error: { cause?: { code?: number; message?: string } } }).error
        .cause;
      expect(cause).toMatchObject({ code: ErrorCode.InternalError });
      expect(cause?.message).toContain('upstream refused');
    });

    it('input_required answered by tasks/update, then completed', async () => {
      const ask = await session.callTool('ask', {}, { task: { preference: 'require' } });
      const seen: string[] = [];
      const settled = await ask.settle({
        onEvent: (event: { type: string; task?: { status: string } }) => {
          if (event.type === 'task' && event.task) seen.push(event.task.status);
        },
      });
      expect(settled.outcome).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
      });
      expect(seen).toContain('input_required');
    });

    it('cancelled by tasks/cancel', async () => {
      const forever = await session.callTool('forever', {}, { task: { preference: 'require' } });
      expect(forever.kind).toBe('task');
      await forever.cancel();
      const settled = await forever.settle();
      expect(settled.outcome.status).toBe('cancelled');
    });
  },
);

/**
 * @module A scripted MCP server for client tests: it answers initialize, tools/list and tools/call
 * with whatever the test sets, including things a correct server would never send.
 */
import type { Tool } from '../../src/protocol/types.js';
import { createLinkedPair, type InMemoryTransport } from '../../src/transports/memory.js';

export interface FakeServer {
  clientTransport: InMemoryTransport;
  tools: Tool[];
  /** The result of the next tools/call (or a function of its params). */
  callResult: unknown;
  calls: Array<Record<string, unknown>>;
  /** How many tools/list requests arrived. */
  lists: number;
  /** Sends a notification to the client. */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** Sends a request to the client (answers to it are kept in `answers`). */
  request(id: string, method: string, params: Record<string, unknown>): Promise<void>;
  /** The client's answers to `request`, by id. */
  answers: Map<string, Record<string, unknown>>;
  /** Closes the server's end, as a server that goes away. */
  close(): Promise<void>;
}

export function fakeServer(tools: Tool[], protocolVersion = '2025-11-25'): FakeServer {
  const [clientTransport, serverTransport] = createLinkedPair();
  const fake: FakeServer = {
    clientTransport,
    tools,
    callResult: { content: [] },
    calls: [],
    lists: 0,
    notify: (method, params) =>
      serverTransport.send(
        params ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', method },
      ),
    request: (id, method, params) => serverTransport.send({ jsonrpc: '2.0', id, method, params }),
    answers: new Map(),
    close: () => serverTransport.close(),
  };
  serverTransport.onmessage = (raw) => {
    const m = raw as { id?: number | string; method?: string; params?: Record<string, unknown> };
    if (m.id !== undefined && m.method === undefined)
      fake.answers.set(String(m.id), raw as Record<string, unknown>);
    if (m.id === undefined || m.method === undefined) return;
    let result: unknown;
    if (m.method === 'initialize') {
      result = {
        protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'fake', version: '0' },
      };
    } else if (m.method === 'tools/list') {
      fake.lists += 1;
      result = { tools: fake.tools };
    } else if (m.method === 'tools/call') {
      fake.calls.push(m.params ?? {});
      result =
        typeof fake.callResult === 'function'
          ? (fake.callResult as (p: unknown) => unknown)(m.params)
          : fake.callResult;
    } else {
      result = {};
    }
    void serverTransport.send({
      jsonrpc: '2.0',
      id: m.id,
      result: result as Record<string, unknown>,
    });
  };
  void serverTransport.start();
  return fake;
}

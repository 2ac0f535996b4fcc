/**
 * Issue 12: toolwire's client on the stateless 2026-07-28 revision (`protocolEra: 'modern'`),
 * over Streamable HTTP against a scripted 2026-07-28 server that checks every request it gets
 * against the revision's strict schema and its header rules: `server/discover` instead of
 * `initialize`; the revision, capabilities and client identity in every request's `_meta`;
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers (base64 for
 * unsafe values); a tool with an invalid `x-mcp-header` dropped; `structuredContent` of any
 * JSON type; an `input_required` result answered by the elicitation handler and sent again with
 * `inputResponses` and `requestState`; the methods 2026-07-28 removed refused locally.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { HttpClientTransport } from '../../src/http.js';
import { validateDefinition } from '../support/specSchemas.js';

interface Seen {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  problems: string[];
}

const REQUEST_OF: Record<string, string> = {
  'server/discover': 'DiscoverRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'notifications/cancelled': 'CancelledNotification',
};

const TOOLS = [
  {
    name: 'query',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        options: {
          type: 'object',
          properties: { verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' } },
        },
        sql: { type: 'string' },
      },
    },
  },
  {
    name: 'bad_header',
    inputSchema: {
      type: 'object',
      properties: { limit: { type: 'number', 'x-mcp-header': 'Limit' } },
    },
  },
  { name: 'confirm', inputSchema: { type: 'object' } },
];

let server: Server;
let url = '';
const seen: Seen[] = [];

function result(id: unknown, value: Record<string, unknown>) {
  return { jsonrpc: '2.0', id, result: { resultType: 'complete', ...value } };
}

function answer(body: Record<string, unknown>): unknown {
  const params = (body['params'] ?? {}) as Record<string, unknown>;
  switch (body['method']) {
    case 'server/discover':
      return result(body['id'], {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        instructions: 'Stateless test server',
        ttlMs: 0,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'stateless', version: '2.0' } },
      });
    case 'tools/list':
      return result(body['id'], { tools: TOOLS, ttlMs: 0, cacheScope: 'private' });
    case 'tools/call': {
      if (params['name'] === 'query')
        return result(body['id'], {
          content: [{ type: 'text', text: '[1,2]' }],
          structuredContent: [1, 2],
        });
      const responses = params['inputResponses'] as
        Record<string, { content?: unknown }> | undefined;
      if (!responses)
        return {
          jsonrpc: '2.0',
          id: body['id'],
          result: {
            resultType: 'input_required',
            requestState: 'state-1',
            inputRequests: {
              ask: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'Go ahead?',
                  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
                },
              },
            },
          },
        };
      return result(body['id'], {
        content: [
          {
            type: 'text',
            text: `state ${String(params['requestState'])}: ${JSON.stringify(responses['ask']?.content)}`,
          },
        ],
      });
    }
    default:
      return {
        jsonrpc: '2.0',
        id: body['id'] ?? null,
        error: { code: -32601, message: 'Method not found' },
      };
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const body = JSON.parse(text) as Record<string, unknown>;
      const definition = REQUEST_OF[String(body['method'])];
      const problems = definition
        ? validateDefinition('2026-07-28', definition, body)
        : [`unexpected method ${String(body['method'])}`];
      seen.push({ headers: req.headers, body, problems });
      if (!('id' in body)) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function connect(errors: Error[] = []): Promise<McpClient> {
  const client = new McpClient(
    { name: 'stateless-test', version: '1.0.0' },
    {
      protocolEra: 'modern',
      onerror: (e) => errors.push(e),
      handlers: { elicitation: () => ({ action: 'accept', content: { ok: true } }) },
    },
  );
  await client.connect(new HttpClientTransport(url));
  return client;
}

describe('the client on the stateless 2026-07-28 revision', () => {
  it('discovers instead of initializing, and every request carries the revision in _meta and headers', async () => {
    seen.length = 0;
    const client = await connect();
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo).toEqual({ name: 'stateless', version: '2.0' });
    expect(client.instructions).toBe('Stateless test server');
    await client.listTools();
    await client.close();
    expect(seen.map((s) => s.body['method'])).toEqual(['server/discover', 'tools/list']);
    for (const request of seen) {
      expect(request.problems).toEqual([]);
      expect(request.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(request.headers['mcp-method']).toBe(request.body['method']);
      expect(request.headers['mcp-session-id']).toBeUndefined();
      expect((request.body['params'] as { _meta: unknown })._meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        'io.modelcontextprotocol/clientInfo': { name: 'stateless-test', version: '1.0.0' },
      });
    }
  });

  it('drops a tool whose x-mcp-header is invalid, and mirrors the valid ones as Mcp-Param-*', async () => {
    seen.length = 0;
    const errors: Error[] = [];
    const client = await connect(errors);
    expect((await client.listTools()).map((t) => t.name)).toEqual(['query', 'confirm']);
    expect(errors.map((e) => e.message)).toEqual([
      'Tool "bad_header" is left out: property "limit" has an x-mcp-header but is not a string, integer or boolean',
    ]);
    const called = await client.callTool('query', {
      region: 'Zürich ',
      options: { verbose: true },
      sql: 'select 1',
    });
    // Any JSON value is structured content on this revision.
    expect(called.structuredContent).toEqual([1, 2]);
    await client.callTool('query', { region: 'us-west1' });
    await client.close();
    const calls = seen.filter((s) => s.body['method'] === 'tools/call');
    expect(calls.map((c) => c.problems)).toEqual([[], []]);
    expect(calls[0]?.headers).toMatchObject({
      'mcp-name': 'query',
      'mcp-param-region': `=?base64?${Buffer.from('Zürich ').toString('base64')}?=`,
      'mcp-param-verbose': 'true',
    });
    expect(calls[1]?.headers['mcp-param-region']).toBe('us-west1');
    // An argument the call does not give sends no header.
    expect(calls[1]?.headers['mcp-param-verbose']).toBeUndefined();
  });

  it('answers an input_required result with its handler and sends the call again', async () => {
    seen.length = 0;
    const client = await connect();
    const done = await client.callTool('confirm', {});
    expect(done.content).toEqual([{ type: 'text', text: 'state state-1: {"ok":true}' }]);
    await client.close();
    const calls = seen.filter((s) => s.body['method'] === 'tools/call');
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.problems)).toEqual([[], []]);
    expect(calls[1]?.body['params']).toMatchObject({
      name: 'confirm',
      requestState: 'state-1',
      inputResponses: { ask: { action: 'accept', content: { ok: true } } },
    });
  });

  it('refuses, without sending, what 2026-07-28 removed: ping, logging, tasks', async () => {
    const client = await connect();
    const before = seen.length;
    await expect(client.ping()).rejects.toMatchObject({ code: 'unsupported-version' });
    // Task methods speak the tasks extension on this revision, which this server does not offer.
    await expect(client.getTask('t')).rejects.toMatchObject({ code: 'capability-missing' });
    await expect(client.listTasks()).rejects.toMatchObject({ code: 'unsupported-version' });
    await expect(client.callTool('confirm', {}, { task: true })).rejects.toThrow(
      'Tasks are not part of the 2026-07-28 revision',
    );
    expect(seen.length).toBe(before);
    await client.close();
  });
});

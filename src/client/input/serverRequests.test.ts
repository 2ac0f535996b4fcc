import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { CreateMessage, Elicit, ListRoots, ListTools, Ping } from '../../protocol/methods.js';
import { answerServerRequest, type ServerRequestHost } from './serverRequests.js';

const signal = new AbortController().signal;

function ask(host: ServerRequestHost, method: string, params: JsonObject = {}) {
  return answerServerRequest(host, { jsonrpc: '2.0', id: 1, method, params }, { signal });
}

function host(handlers: ServerRequestHost['handlers'] = {}): ServerRequestHost {
  return { handlers, elicitationModes: ['form'], report: () => {} };
}

describe('the table of server requests', () => {
  it('answers ping without a handler', async () => {
    expect(await ask(host(), Ping.method)).toEqual({});
  });

  it('is -32601 by absence for a method it lacks, and for one whose handler was not given', async () => {
    await expect(ask(host(), ListTools.method)).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
      message: `Method not found: ${ListTools.method}`,
    });
    for (const method of [CreateMessage.method, Elicit.method, ListRoots.method])
      await expect(ask(host(), method)).rejects.toMatchObject({
        code: ErrorCode.MethodNotFound,
        message: `Client does not support ${method}`,
      });
  });

  it('hands each request to its handler with the request id and _meta', async () => {
    const answered = host({
      roots: (context) => [
        { uri: `file:///${String(context.requestId)}/${String(context.meta?.['k'])}` },
      ],
      elicitation: (params) => ({ action: 'accept', content: { seen: params.message } }),
    });
    expect(await ask(answered, ListRoots.method, { _meta: { k: 'v' } })).toEqual({
      roots: [{ uri: 'file:///1/v' }],
    });
    expect(
      await ask(answered, Elicit.method, {
        message: 'hi',
        requestedSchema: { type: 'object', properties: { n: { type: 'number', default: 3 } } },
      }),
    ).toEqual({ action: 'accept', content: { seen: 'hi', n: 3 } });
  });
});

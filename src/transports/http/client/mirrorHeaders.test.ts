import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../../jsonrpc/types.js';
import { mirrorHeaders } from './mirrorHeaders.js';

const headersOf = (message: JsonRpcMessage) => {
  const headers: Record<string, string> = {};
  mirrorHeaders(message, headers);
  return headers;
};

describe('mirrorHeaders', () => {
  it('names the tool of a call, the task of a task method, and nothing for other methods', () => {
    expect(
      headersOf({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add' } }),
    ).toEqual({ 'mcp-method': 'tools/call', 'mcp-name': 'add' });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect(headersOf({ jsonrpc: '2.0', id: 1, method, params: { taskId: 'T-1' } })).toEqual({
        'mcp-method': method,
        'mcp-name': 'T-1',
      });
    }
    expect(headersOf({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).toEqual({
      'mcp-method': 'tools/list',
    });
    // Not safe as a header value as it is: the base64 sentinel.
    expect(
      headersOf({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'café' } })[
        'mcp-name'
      ],
    ).toBe('=?base64?Y2Fmw6k=?=');
  });
});

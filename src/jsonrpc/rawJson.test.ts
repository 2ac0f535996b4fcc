import { describe, expect, it } from 'vitest';
import { encodeMessage, RawJson } from './rawJson.js';

describe('RawJson', () => {
  const value = { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'c"1' };

  it('encodes a response carrying one exactly as JSON.stringify would the value', () => {
    for (const id of [1, 'x"y', 0]) {
      const message = { jsonrpc: '2.0', id, result: new RawJson(value) };
      expect(encodeMessage(message)).toBe(JSON.stringify({ jsonrpc: '2.0', id, result: value }));
      expect(JSON.stringify(message)).toBe(encodeMessage(message)); // through toJSON
    }
  });

  it('leaves every other message to JSON.stringify', () => {
    const notification = { jsonrpc: '2.0', method: 'x', params: { a: 1 } };
    expect(encodeMessage(notification)).toBe(JSON.stringify(notification));
    const batch = [{ jsonrpc: '2.0', id: 1, result: new RawJson({ ok: true }) }];
    expect(encodeMessage(batch)).toBe('[{"jsonrpc":"2.0","id":1,"result":{"ok":true}}]');
  });
});

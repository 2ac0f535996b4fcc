import { describe, expect, it } from 'vitest';
import { checkMessages, type CheckedPost } from './postMessages.js';

const request = (id: number | string, method = 'tools/list') => ({ jsonrpc: '2.0', id, method });
const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };

function checked(value: unknown): CheckedPost {
  const result = checkMessages(value);
  if (typeof result === 'string') throw new Error(result);
  return result;
}

describe('checkMessages', () => {
  it('takes one message: a request awaits its id, a notification nothing', () => {
    expect(checked(request(1))).toMatchObject({
      batch: false,
      initialize: false,
      requestIds: [1],
      messages: [request(1)],
    });
    expect(checked(request('a', 'initialize'))).toMatchObject({ initialize: true });
    expect(checked(notification).requestIds).toEqual([]);
    expect(checked({ jsonrpc: '2.0', id: 3, result: {} }).requestIds).toEqual([]);
  });

  it('awaits an error for an invalid message whose id can be read, and refuses one whose cannot', () => {
    expect(checked({ jsonrpc: '1.0', id: 4, method: 'x' }).requestIds).toEqual([4]);
    expect(checkMessages({ jsonrpc: '2.0', id: {}, method: 'x' })).toMatch(/"id"/);
    expect(checkMessages('text')).toMatch(/JSON object/);
  });

  it('refuses an empty batch, a batch with initialize, and a repeated request id', () => {
    expect(checkMessages([])).toMatch(/empty batch/);
    expect(checkMessages([request(1), request(2, 'initialize')])).toMatch(/initialize/);
    expect(checkMessages([request(1), notification, request(1)])).toBe(
      'Request id 1 appears twice',
    );
    // A number and a string are different ids.
    expect(checked([request(1), request('1')]).requestIds).toEqual([1, '1']);
  });

  it('keeps every message of a batch and the ids it awaits, in order', () => {
    const post = checked([request(2), notification, request('b')]);
    expect(post).toMatchObject({ batch: true, initialize: false, requestIds: [2, 'b'] });
    expect(post.messages).toHaveLength(3);
    expect(post.classified.map((c) => c.kind)).toEqual(['request', 'notification', 'request']);
  });
});

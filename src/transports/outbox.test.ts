import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../jsonrpc/types.js';
import { Outbox } from './outbox.js';

const note = (method: string, params: Record<string, unknown>): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method,
  params,
});

function drain(outbox: Outbox): JsonRpcMessage[] {
  const written: JsonRpcMessage[] = [];
  expect(outbox.flush((m) => (written.push(m as JsonRpcMessage), true))).toBe(true);
  return written;
}

describe('Outbox', () => {
  it('replaces a waiting progress, task state or tool list change by a later one, in its place', () => {
    const outbox = new Outbox();
    outbox.hold(note('notifications/progress', { progressToken: 'p', progress: 1 }));
    outbox.hold(note('notifications/tasks', { taskId: 'A', status: 'working' }));
    outbox.hold(note('notifications/tools/list_changed', {}));
    outbox.hold(note('notifications/tasks/status', { taskId: 'A', status: 'working' }));
    outbox.hold({ jsonrpc: '2.0', id: 1, result: {} });
    outbox.hold(note('notifications/progress', { progressToken: 'p', progress: 2 }));
    outbox.hold(note('notifications/tasks', { taskId: 'A', status: 'completed' }));
    outbox.hold(note('notifications/tasks', { taskId: 'B', status: 'working' }));
    outbox.hold(note('notifications/tools/list_changed', {}));
    expect(outbox.size).toBe(6);
    expect(drain(outbox)).toEqual([
      note('notifications/progress', { progressToken: 'p', progress: 2 }),
      note('notifications/tasks', { taskId: 'A', status: 'completed' }),
      note('notifications/tools/list_changed', {}),
      note('notifications/tasks/status', { taskId: 'A', status: 'working' }),
      { jsonrpc: '2.0', id: 1, result: {} },
      note('notifications/tasks', { taskId: 'B', status: 'working' }),
    ]);
  });

  it('drops log messages beyond its bound and tells how many, once the rest is written', () => {
    const outbox = new Outbox(2);
    for (let i = 0; i < 5; i++)
      outbox.hold(note('notifications/message', { level: 'info', data: i }));
    const written = drain(outbox);
    expect(written).toHaveLength(3);
    expect(written[2]).toMatchObject({
      params: {
        level: 'warning',
        data: '3 log message(s) were dropped: the client was not reading fast enough',
      },
    });
  });

  it('keeps requests and responses whatever their number', () => {
    const outbox = new Outbox(1);
    for (let i = 0; i < 500; i++)
      expect(outbox.hold({ jsonrpc: '2.0', id: i, result: {} })).toBe(true);
    expect(drain(outbox)).toHaveLength(500);
  });
});

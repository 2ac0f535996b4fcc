import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../taskRecord.js';
import { settlementOf } from './taskOutcome.js';
import { createTaskResult, detailedTaskOf, taskOf } from './taskWire.js';

const base: TaskRecord = {
  taskId: 'T1',
  status: 'working',
  createdAt: '2030-01-01T00:00:00.000Z',
  lastUpdatedAt: '2030-01-01T00:00:01.000Z',
  ttl: 60_000,
  pollInterval: 1000,
  owner: 'identity:x',
  method: 'tools/call',
  generation: 'extension',
  runner: 'runner-1',
};
const TASK = {
  taskId: 'T1',
  createdAt: '2030-01-01T00:00:00.000Z',
  lastUpdatedAt: '2030-01-01T00:00:01.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 1000,
};

describe('the tasks extension view of a task record', () => {
  it('names ttlMs and pollIntervalMs, and shows nothing of the owner, runner or generation', () => {
    expect(taskOf(base)).toEqual({ ...TASK, status: 'working' });
    expect(createTaskResult(base)).toEqual({ resultType: 'task', ...TASK, status: 'working' });
    expect(taskOf({ ...base, ttl: null, statusMessage: 'on it' })).toMatchObject({
      ttlMs: null,
      statusMessage: 'on it',
    });
  });

  it('details each status with its payload: inputRequests, result or error', () => {
    const ask = { method: 'roots/list', params: {} };
    expect(
      detailedTaskOf({ ...base, status: 'input_required', inputRequests: { r: ask } }),
    ).toEqual({ ...TASK, status: 'input_required', inputRequests: { r: ask } });
    const result = { content: [{ type: 'text', text: 'no' }], isError: true };
    expect(
      detailedTaskOf({ ...base, status: 'completed', outcome: { kind: 'result', result } }),
    ).toEqual({ ...TASK, status: 'completed', result });
    const error = { code: -32603, message: 'boom' };
    expect(
      detailedTaskOf({ ...base, status: 'failed', outcome: { kind: 'error', error } }),
    ).toEqual({ ...TASK, status: 'failed', error });
    // A failure without a stored error still carries one.
    expect(detailedTaskOf({ ...base, status: 'failed', statusMessage: 'lost' })).toMatchObject({
      error: { code: -32603, message: 'lost' },
    });
    expect(detailedTaskOf({ ...base, status: 'cancelled' })).toEqual({
      ...TASK,
      status: 'cancelled',
    });
  });

  it('completes a task whose result is isError; only a JSON-RPC error fails it', () => {
    expect(settlementOf({ kind: 'result', result: { isError: true, content: [] } })).toEqual({
      to: 'completed',
    });
    expect(settlementOf({ kind: 'error', error: { code: -32602, message: 'bad' } })).toEqual({
      to: 'failed',
      statusMessage: 'bad',
    });
  });
});

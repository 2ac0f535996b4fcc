import { describe, expect, it } from 'vitest';
import { ErrorCode, RpcError } from '../../../jsonrpc/errors.js';
import type { TaskRecord } from '../../taskRecord.js';
import { settlementOf, taskResultOf } from './taskOutcome.js';
import { createTaskResult, taskOf } from './taskWire.js';

const record: TaskRecord = {
  taskId: 'T1',
  status: 'completed',
  createdAt: '2030-01-01T00:00:00.000Z',
  lastUpdatedAt: '2030-01-01T00:00:01.000Z',
  ttl: 60_000,
  pollInterval: 1000,
  owner: 'session:s',
  method: 'tools/call',
  runner: 'runner-1',
  outcome: { kind: 'result', result: { content: [], _meta: { mine: 1 } } },
};

describe('the 2025-11-25 view of a task record', () => {
  it('shows the wire Task only: no owner, method, runner or outcome', () => {
    expect(taskOf(record)).toEqual({
      taskId: 'T1',
      status: 'completed',
      createdAt: '2030-01-01T00:00:00.000Z',
      lastUpdatedAt: '2030-01-01T00:00:01.000Z',
      ttl: 60_000,
      pollInterval: 1000,
    });
  });

  it('answers a task-augmented request with a CreateTaskResult', () => {
    expect(createTaskResult(record, undefined)).toEqual({ task: taskOf(record) });
    expect(createTaskResult(record, 'on it')).toEqual({
      task: taskOf(record),
      _meta: { 'io.modelcontextprotocol/model-immediate-response': 'on it' },
    });
  });

  it('fails a task whose result is isError, with its first text as the message', () => {
    expect(settlementOf({ kind: 'result', result: { content: [] } })).toEqual({ to: 'completed' });
    const long = 'x'.repeat(600);
    expect(
      settlementOf({
        kind: 'result',
        result: { isError: true, content: [{ type: 'text', text: long }] },
      }),
    ).toEqual({ to: 'failed', statusMessage: long.slice(0, 500) });
    expect(
      settlementOf({ kind: 'error', error: { code: ErrorCode.InternalError, message: 'boom' } }),
    ).toEqual({ to: 'failed', statusMessage: 'boom' });
    expect(settlementOf({ kind: 'result', result: { isError: true, content: [] } })).toEqual({
      to: 'failed',
    });
  });

  it('answers tasks/result with the stored result tagged with the task, or its error', () => {
    expect(taskResultOf(record)).toEqual({
      content: [],
      _meta: { mine: 1, 'io.modelcontextprotocol/related-task': { taskId: 'T1' } },
    });
    const failed: TaskRecord = {
      ...record,
      status: 'failed',
      outcome: { kind: 'error', error: { code: ErrorCode.InternalError, message: 'boom' } },
    };
    expect(() => taskResultOf(failed)).toThrow(RpcError);
    const cancelled: TaskRecord = { ...record, status: 'cancelled' };
    delete cancelled.outcome;
    expect(() => taskResultOf(cancelled)).toThrow('Task T1 was cancelled and has no result');
  });
});

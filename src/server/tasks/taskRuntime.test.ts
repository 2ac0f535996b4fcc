import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTaskStore } from '../../tasks/memoryTaskStore.js';
import type { TaskRecord, TaskSettlement } from '../../tasks/taskRecord.js';
import { TaskRuntime } from './taskRuntime.js';

// The runtime is era-neutral: the caller says which terminal status an outcome gives the task
// (the 2025 view fails an isError result; the 2026 extension completes it) and hears changes as
// records, which it shows in its own wire shape.
describe('TaskRuntime (era-neutral)', () => {
  const runtimes: TaskRuntime[] = [];
  afterEach(() => {
    for (const runtime of runtimes.splice(0)) runtime.close();
  });

  async function runToEnd(settle: (isError: boolean) => TaskSettlement) {
    const store = new MemoryTaskStore();
    const runtime = new TaskRuntime({ store }, () => {});
    runtimes.push(runtime);
    const changes: TaskRecord[] = [];
    const record = await runtime.start({
      owner: 'principal:p',
      method: 'tools/call',
      session: { id: 's', taskChanged: (r) => changes.push(r) },
      ttl: undefined,
      run: () => Promise.resolve({ isError: true, content: [] }),
      settle: (outcome) => settle(outcome.kind === 'result' && outcome.result['isError'] === true),
    });
    expect(record).toMatchObject({ status: 'working', owner: 'principal:p', method: 'tools/call' });
    await runtime.drain(1000);
    const stored = await store.get({ taskId: record.taskId, owner: 'principal:p' });
    return { stored, changes };
  }

  it('settles the outcome as the caller says, and tells the session with the record', async () => {
    const completed = await runToEnd(() => ({ to: 'completed' }));
    expect(completed.stored?.status).toBe('completed');
    expect(completed.stored?.outcome).toEqual({
      kind: 'result',
      result: { isError: true, content: [] },
    });
    expect(completed.changes.map((r) => r.status)).toEqual(['completed']);

    const failed = await runToEnd((isError) =>
      isError ? { to: 'failed', statusMessage: 'it failed' } : { to: 'completed' },
    );
    expect(failed.stored).toMatchObject({ status: 'failed', statusMessage: 'it failed' });
  });
});

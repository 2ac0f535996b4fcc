import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import { MemoryTaskStore } from '../../../../tasks/memoryTaskStore.js';
import { TaskRuntime } from '../../taskRuntime.js';
import { watchedIds, watchTasks } from './taskWatch.js';

describe('watchTasks', () => {
  it("agrees to the caller's own extension tasks only, tells nothing before start, then every change once", async () => {
    const store = new MemoryTaskStore();
    const runtime = new TaskRuntime({ store }, () => {});
    const mine = await store.create({
      owner: 'a',
      method: 'tools/call',
      ttl: 60_000,
      generation: 'extension',
    });
    const legacy = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
    const theirs = await store.create({
      owner: 'b',
      method: 'tools/call',
      ttl: 60_000,
      generation: 'extension',
    });
    const sent: JsonObject[] = [];
    const watch = await watchTasks(
      runtime,
      { owner: 'a', taskIds: [mine.taskId, legacy.taskId, theirs.taskId, 'nope'] },
      (task) => sent.push(task),
    );
    expect(watch.agreed).toEqual([mine.taskId]);
    // A change before the acknowledgement waits; start() tells the latest state once.
    await store.transition({ taskId: mine.taskId, to: 'input_required' });
    await store.transition({ taskId: theirs.taskId, to: 'completed' });
    expect(sent).toEqual([]);
    watch.start();
    expect(sent.map((t) => [t['taskId'], t['status']])).toEqual([[mine.taskId, 'input_required']]);
    await store.transition({
      taskId: mine.taskId,
      to: 'completed',
      outcome: { kind: 'result', result: { content: [] } },
    });
    expect(sent.map((t) => t['status'])).toEqual(['input_required', 'completed']);
    expect(sent[1]).toMatchObject({ result: { content: [] } });
    watch.stop();
    runtime.close();
    await store.close();
  });

  it('takes at most 100 ids, strings only', () => {
    expect(watchedIds(undefined)).toBeUndefined();
    expect(watchedIds(['a', 'a', 'b'])).toEqual(['a', 'b']);
    expect(() => watchedIds('a')).toThrow(/taskIds/);
    expect(() => watchedIds([1])).toThrow(/taskIds/);
    expect(() => watchedIds(Array.from({ length: 101 }, (_, i) => String(i)))).toThrow(/100/);
  });
});

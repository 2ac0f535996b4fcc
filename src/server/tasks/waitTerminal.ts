/**
 * @module Waiting for a task to end: what a request that blocks until a task's outcome (the
 * 2025-11-25 `tasks/result`) needs from the store, whichever process runs the task. Store events
 * are the fast path; a periodic re-read catches expiry and anything missed.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import { ErrorCode, LocalError, RpcError } from '../../jsonrpc/errors.js';
import type { TaskRecord } from '../../tasks/taskRecord.js';
import { isTerminal } from '../../tasks/taskStatus.js';
import type { TaskStore } from '../../tasks/taskStore.js';

/** Waits until a task is terminal (or gone, or the request is cancelled); re-checks periodically. */
export function waitTerminal(
  store: TaskStore,
  lookup: { taskId: string; owner: string },
  incoming: IncomingRequestContext,
): Promise<TaskRecord> {
  return new Promise<TaskRecord>((resolve, reject) => {
    let done = false;
    let unsubscribe: () => void = () => {};
    const finish = (outcome: () => void): void => {
      if (done) return;
      done = true;
      clearInterval(recheck);
      unsubscribe();
      outcome();
    };
    const check = (): void => {
      store.get(lookup).then(
        (record) => {
          if (!record)
            finish(() =>
              reject(
                new RpcError(
                  ErrorCode.InvalidParams,
                  `Task ${lookup.taskId} expired before it finished`,
                ),
              ),
            );
          else if (isTerminal(record.status)) finish(() => resolve(record));
        },
        (error: unknown) =>
          finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    };
    // Events are the fast path; the periodic check catches expiry and anything missed.
    const recheck = setInterval(check, 2000);
    (recheck as { unref?: () => void }).unref?.();
    incoming.cancellation.onCancel((reason) =>
      finish(() =>
        reject(
          reason instanceof Error
            ? reason
            : new LocalError('aborted', 'tasks/result was cancelled'),
        ),
      ),
    );
    store
      .subscribe(lookup.taskId, (event) => {
        if (!isTerminal(event.status)) return;
        // A change made in this process carries the task: no need to read it back.
        const task = event.task;
        if (task?.owner === lookup.owner && isTerminal(task.status)) finish(() => resolve(task));
        else check();
      })
      .then(
        (stop) => {
          if (done) stop();
          else unsubscribe = stop;
          check(); // a change between the first read and the subscription is not missed
        },
        (error: unknown) =>
          finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
  });
}

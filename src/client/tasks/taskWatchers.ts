/**
 * @module Who listens to which task's status notifications: the calls `callTool` runs as tasks
 * and the tasks `watchTask` watches each hear their own task's `notifications/tasks/status`
 * (2025-11-25) or `notifications/tasks` (the tasks extension) as they arrive.
 */
import type { TaskState } from './taskState.js';

/** Listeners of status notifications, per task id. */
export class TaskWatchers {
  private readonly byTask = new Map<string, Set<(task: TaskState) => void>>();

  /** Listens to status notifications of one task; returns the stop. */
  watch(taskId: string, listener: (task: TaskState) => void): () => void {
    let set = this.byTask.get(taskId);
    if (!set) this.byTask.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byTask.delete(taskId);
    };
  }

  /** Tells the task's listeners its new status. */
  tell(task: TaskState): void {
    for (const listener of [...(this.byTask.get(task.taskId) ?? [])]) listener(task);
  }
}

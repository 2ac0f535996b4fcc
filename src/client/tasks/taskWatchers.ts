/**
 * @module Who listens to which task's status notifications: the calls `callTool` runs as tasks
 * each watch their own task, and hear its `notifications/tasks/status` as they arrive.
 */
import type { Task } from '../../tasks/eras/rev2025/taskWire.js';

/** Listeners of status notifications, per task id. */
export class TaskWatchers {
  private readonly byTask = new Map<string, Set<(task: Task) => void>>();

  /** Listens to status notifications of one task; returns the stop. */
  watch(taskId: string, listener: (task: Task) => void): () => void {
    let set = this.byTask.get(taskId);
    if (!set) this.byTask.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byTask.delete(taskId);
    };
  }

  /** Tells the task's listeners its new status. */
  tell(task: Task): void {
    for (const listener of [...(this.byTask.get(task.taskId) ?? [])]) listener(task);
  }
}

/**
 * @module The subscribers of a task store, per task id: what `TaskStore.subscribe` hands out and
 * how a store tells them of a change. Shared by the memory and Redis stores.
 */
import type { TaskEvent } from './taskStore.js';

type Listener = (event: TaskEvent) => void;

/** Listeners per task id. */
export class TaskListeners {
  private readonly byTask = new Map<string, Set<Listener>>();

  /** Adds a listener of one task; returns its removal. */
  add(taskId: string, listener: Listener): () => void {
    let set = this.byTask.get(taskId);
    if (!set) this.byTask.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byTask.get(taskId) === set) this.byTask.delete(taskId);
    };
  }

  /** Tells the task's listeners, in the order they subscribed; one that throws does not stop the rest. */
  emit(event: TaskEvent): void {
    const set = this.byTask.get(event.taskId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch {
        // A listener's failure must not affect the store or the other listeners.
      }
    }
  }

  clear(): void {
    this.byTask.clear();
  }
}

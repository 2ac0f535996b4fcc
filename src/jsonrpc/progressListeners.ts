/**
 * @module Listeners of progress for tokens that outlive their request (a task's progress token
 * stays valid until the task ends), as a connection keeps them: values that do not increase are
 * dropped, and a listener that throws does not break message processing.
 */
import type { Progress } from './pendingRequests.js';
import type { RequestId } from './types.js';

/** The progress listeners of one connection, by token. */
export class ProgressListeners {
  private readonly byToken = new Map<RequestId, (progress: Progress) => void>();

  /** Listens to `token`'s progress; returns the unsubscribe. */
  listen(token: RequestId, listener: (progress: Progress) => void): () => void {
    let last = -Infinity;
    this.byToken.set(token, (update) => {
      if (!(update.progress > last)) return;
      last = update.progress;
      try {
        listener(update);
      } catch {
        // A throwing progress callback must not break message processing.
      }
    });
    return () => this.byToken.delete(token);
  }

  /** Hands `update` to the token's listener, if any. */
  deliver(token: RequestId, update: Progress): void {
    this.byToken.get(token)?.(update);
  }
}

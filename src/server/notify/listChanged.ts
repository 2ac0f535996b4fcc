/**
 * @module The tool list's change notice: the registry's change count, and the debounced
 * `list_changed` it sends to both kinds of listener (2025 sessions, each told once per change it
 * has not seen; 2026 `subscriptions/listen` streams that asked). Changes within the debounce
 * window make one notice; with nobody to tell, no timer runs.
 */
import type { ListenStreams } from './listenStreams.js';

/** A 2025 session as the notice reaches it. */
export interface ChangeListener {
  notifyToolListChanged(changeCount: number): void;
}

/** What the notice tells. */
export interface ListChangedTargets {
  readonly sessions: ReadonlySet<ChangeListener>;
  readonly listens: ListenStreams;
}

/** The change count and the debounced notice of one server. */
export class ListChangedNotice {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private count = 0;

  constructor(
    private readonly targets: ListChangedTargets,
    private readonly debounceMs: number,
  ) {}

  /** How many times the tool list has changed so far. */
  get changes(): number {
    return this.count;
  }

  /** The registry changed: tell everyone once the debounce window closes. */
  changed(): void {
    this.count++;
    const { sessions, listens } = this.targets;
    // Nobody to tell (tools registered before connect): a session lists them when it starts.
    if (this.timer !== undefined || sessions.size + listens.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.debounceMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Tells everyone now (what a visibility hook decides has changed). */
  changedNow(): void {
    this.count++;
    this.flush();
  }

  /** Stops the pending notice (the server closes). */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    for (const session of this.targets.sessions) session.notifyToolListChanged(this.count);
    this.targets.listens.toolsChanged();
  }
}

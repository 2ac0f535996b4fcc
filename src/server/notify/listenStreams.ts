/**
 * @module The open `subscriptions/listen` streams of one server (2026-07-28,
 * basic/patterns/subscriptions): the second way a change of the tool list reaches clients, beside
 * the 2025 sessions' `list_changed`. The server's debounced change notice calls
 * {@link ListenStreams.toolsChanged}; shutting down ends every stream gracefully. Several
 * instances: each one's registry changes (an application broadcast changes the tool set on every
 * instance, see `InstanceLink`), and each tells its own listeners. Bounded: a listen holds a
 * stream (a connection over HTTP) for as long as the client likes, so the listens open at once
 * are capped per client (its principal, else its address) and in all.
 */
import { rateLimitError } from '../policy/rateLimitPolicy.js';

/** One open listen, as the registry drives it. */
export interface OpenListen {
  /** The client asked for `notifications/tools/list_changed`. */
  readonly toolsListChanged: boolean;
  /** Sends `notifications/tools/list_changed` on the stream. */
  toolsChanged(): void;
  /** Ends the stream gracefully (the listen's `complete` response). */
  end(): void;
}

/** The server option `listens`: how many `subscriptions/listen` streams may be open at once. */
export interface ListenLimits {
  /** In all. Default 10 000. */
  readonly max?: number;
  /** Per client (its principal, else its network address). Default 100. */
  readonly perClient?: number;
}

/** The open listens of a server. */
export class ListenStreams {
  private readonly open = new Set<OpenListen>();
  private readonly perClient = new Map<string, number>();
  private readonly max: number;
  private readonly maxPerClient: number;

  constructor(limits: ListenLimits = {}) {
    this.max = checked(limits.max, 10_000, 'max');
    this.maxPerClient = checked(limits.perClient, 100, 'perClient');
  }

  /** How many listens are open. */
  get size(): number {
    return this.open.size;
  }

  /**
   * Adds a listen of `client` (see `rateLimitSubject`); returns what removes it. Throws the
   * rate-limit error (-31429, `limit: 'listens'`) when the client or the server is at its cap.
   */
  add(listen: OpenListen, client: string): () => void {
    const held = this.perClient.get(client) ?? 0;
    if (held >= this.maxPerClient || this.open.size >= this.max) {
      const which = held >= this.maxPerClient ? `${this.maxPerClient} per client` : `${this.max}`;
      throw rateLimitError(`Too many open subscriptions/listen streams (at most ${which})`, {
        retryAfterMs: 1000,
        limit: 'listens',
      });
    }
    this.open.add(listen);
    this.perClient.set(client, held + 1);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.open.delete(listen);
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    };
  }

  /** The tool list changed: told to every listen that asked. */
  toolsChanged(): void {
    for (const listen of this.open) if (listen.toolsListChanged) listen.toolsChanged();
  }

  /** Ends every listen gracefully (the server shuts down). */
  closeAll(): void {
    const all = [...this.open];
    this.open.clear();
    this.perClient.clear();
    for (const listen of all) listen.end();
  }
}

function checked(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`listens.${name} must be a whole number, 1 or more`);
  return value;
}

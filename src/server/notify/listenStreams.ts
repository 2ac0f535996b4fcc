/**
 * @module The open `subscriptions/listen` streams of one server (2026-07-28,
 * basic/patterns/subscriptions): the second way a change of the tool list reaches clients, beside
 * the 2025 sessions' `list_changed`. The server's debounced change notice calls
 * {@link ListenStreams.toolsChanged}; shutting down ends every stream gracefully. Several
 * instances: each one's registry changes (an application broadcast changes the tool set on every
 * instance, see `InstanceLink`), and each tells its own listeners.
 */

/** One open listen, as the registry drives it. */
export interface OpenListen {
  /** The client asked for `notifications/tools/list_changed`. */
  readonly toolsListChanged: boolean;
  /** Sends `notifications/tools/list_changed` on the stream. */
  toolsChanged(): void;
  /** Ends the stream gracefully (the listen's `complete` response). */
  end(): void;
}

/** The open listens of a server. */
export class ListenStreams {
  private readonly open = new Set<OpenListen>();

  /** How many listens are open. */
  get size(): number {
    return this.open.size;
  }

  /** Adds a listen; returns what removes it. */
  add(listen: OpenListen): () => void {
    this.open.add(listen);
    return () => this.open.delete(listen);
  }

  /** The tool list changed: told to every listen that asked. */
  toolsChanged(): void {
    for (const listen of this.open) if (listen.toolsListChanged) listen.toolsChanged();
  }

  /** Ends every listen gracefully (the server shuts down). */
  closeAll(): void {
    const all = [...this.open];
    this.open.clear();
    for (const listen of all) listen.end();
  }
}

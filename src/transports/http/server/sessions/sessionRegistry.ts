/**
 * @module The live sessions of one HTTP handler: creation under a cap, lookup bound to the
 * principal that created the session, idle reaping (also of sessions that only hold a GET
 * stream), and closing them all.
 */
import type { Identity, Transport } from '../../../../jsonrpc/transport.js';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import { isOwner, type SessionOwner } from './sessionOwner.js';

/** What the handler keeps of the server side of a session. */
export interface SessionHandle {
  close(): Promise<void>;
  /** True while the session is handling requests (it is not reaped, and shutdown waits for it). */
  readonly busy: boolean;
  /** The negotiated revision, once initialized. */
  readonly protocolVersion: string | undefined;
  /** True when the session has as many requests waiting as it may (further ones get 429). */
  readonly saturated?: boolean;
  /** Applies a state another instance saved for this session (see cluster.ts). */
  applyState?(state: JsonObject): void;
}

/** Starts the server side of a session on a transport (wired by the `toolwire/http` entry). */
export type ConnectSession = (
  transport: Transport,
  options: {
    sessionId?: string;
    identity?: Identity;
    /** The rate-limit key of an anonymous client's address (messages also carry theirs). */
    clientAddress?: string;
    assumeVersion?: string;
    transient?: boolean;
    /** Start from a state another instance saved (the session was initialized there). */
    restore?: JsonObject;
    /** Save the session's state whenever it changes (the request changing it waits). */
    persist?: (state: JsonObject) => Promise<void>;
  },
) => Promise<SessionHandle>;

/** A session as the registry keeps it. */
export interface LiveSession<T extends Transport> {
  readonly transport: T;
  readonly handle: SessionHandle;
  /** Who created the session: only the same identity (issuer, subject, client) may use it. */
  readonly owner: SessionOwner | undefined;
  /** When the session last saw a request; idle ones are reaped. */
  lastActivity(): number;
  /** True while a client holds the session's GET stream open. */
  listening(): boolean;
  /**
   * Ends the HTTP connection of the GET stream (the stream stays, resumable): a client that is
   * still there reconnects, which is activity; a session whose client does not is reaped.
   */
  dropListener(): void;
}

/** The outcome of a lookup: the session, or why there is none (no object made per request). */
export type Lookup<T extends Transport> = LiveSession<T> | 'missingSession' | 'unknownSession';

/** Sessions by id. */
export class SessionRegistry<T extends Transport> {
  private readonly sessions = new Map<string, LiveSession<T>>();
  private reaper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly limits: { maxSessions: number; idleMs: number },
    private readonly report: (error: unknown) => void,
  ) {
    const every = Math.max(1000, Math.min(limits.idleMs / 2, 60_000));
    this.reaper = setInterval(() => this.reapIdle(Date.now()), every);
    (this.reaper as { unref?: () => void }).unref?.();
  }

  /** Number of live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** True when another session may be created (reaping idle ones first if at the cap). */
  hasRoom(): boolean {
    if (this.sessions.size < this.limits.maxSessions) return true;
    this.reapIdle(Date.now());
    return this.sessions.size < this.limits.maxSessions;
  }

  /** Adds a session; it leaves the registry when its transport closes. */
  add(id: string, session: LiveSession<T>): void {
    this.sessions.set(id, session);
    const previous = session.transport.onclose;
    session.transport.onclose = () => {
      this.sessions.delete(id);
      previous?.();
    };
  }

  /**
   * The session named by the request's `MCP-Session-Id`, if it exists and belongs to the caller
   * (see sessionOwner.ts). A session of anyone else is reported as unknown: its existence is not
   * revealed.
   */
  lookup(sessionId: string | null, identity: Identity | undefined): Lookup<T> {
    if (sessionId === null || sessionId === '') return 'missingSession';
    const session = this.sessions.get(sessionId);
    if (!session || !isOwner(session.owner, identity)) return 'unknownSession';
    return session;
  }

  /** The session with this id, whoever owns it (for messages between instances). */
  peek(sessionId: string): LiveSession<T> | undefined {
    return this.sessions.get(sessionId);
  }

  /** True when any session is still handling requests. */
  anyBusy(): boolean {
    for (const s of this.sessions.values()) if (s.handle.busy) return true;
    return false;
  }

  /** Closes every session and stops reaping. */
  async closeAll(): Promise<void> {
    if (this.reaper !== undefined) clearInterval(this.reaper);
    this.reaper = undefined;
    await Promise.allSettled([...this.sessions.values()].map((s) => s.handle.close()));
    this.sessions.clear();
  }

  /**
   * Ends the sessions idle for `idleMs` (no request, nothing in flight). An open GET stream does
   * not keep a session alive by itself: its connection is ended instead, and the session lives on
   * only if the client reconnects (a client that is gone, or a half-open connection, does not).
   */
  private reapIdle(now: number): void {
    for (const session of this.sessions.values()) {
      if (now - session.lastActivity() < this.limits.idleMs || session.handle.busy) continue;
      if (session.listening()) session.dropListener();
      else session.handle.close().catch(this.report);
    }
  }
}

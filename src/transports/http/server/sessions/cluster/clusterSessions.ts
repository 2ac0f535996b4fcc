/**
 * @module The Streamable HTTP handler's side of a cluster (see cluster.ts): recording the
 * sessions it creates, adopting those another instance created, routing client messages that
 * belong elsewhere, and acting on what other instances publish.
 */
import { INITIALIZED } from '../../../../../jsonrpc/methods.js';
import type { Classified } from '../../../../../jsonrpc/guards.js';
import type { Identity } from '../../../../../jsonrpc/transport.js';
import type { JsonObject } from '../../../../../jsonrpc/types.js';
import { instanceOfRequestId, type ClusterMessage, type HttpCluster } from './cluster.js';
import { HttpSessionTransport, type SessionPeers, type SessionSettings } from '../httpSession.js';
import { decodeOwner, isOwner } from '../sessionOwner.js';
import type { ConnectSession, LiveSession, SessionRegistry } from '../sessionRegistry.js';

/** What {@link ClusterSessions} needs from the handler. */
export interface ClusterSessionsDeps {
  readonly registry: SessionRegistry<HttpSessionTransport>;
  readonly connect: ConnectSession;
  readonly settings: SessionSettings;
  /** A session unused this long expires from the directory. */
  readonly idleMs: number;
  readonly report: (error: unknown) => void;
}

/** The outcome of finding a session another instance may have created. */
export type Adoption =
  | { ok: true; session: LiveSession<HttpSessionTransport> }
  | { ok: false; failure: 'unknownSession' | 'storeUnavailable' | 'tooManySessions' };

/** Client notifications that only matter where they arrive. */
const LOCAL_NOTIFICATIONS = new Set([INITIALIZED]);

/** Sessions shared with other instances. */
export class ClusterSessions {
  /** Resolves once this instance hears the bus. */
  readonly ready: Promise<void>;
  private readonly adopting = new Map<string, Promise<Adoption>>();
  private readonly touchedAt = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    readonly cluster: HttpCluster,
    private readonly deps: ClusterSessionsDeps,
  ) {
    this.ready = cluster.bus
      .subscribe((message) => this.onBusMessage(message))
      .then((stop) => {
        this.unsubscribe = stop;
      });
    this.ready.catch(deps.report);
  }

  /** How the transport of a session reaches the other instances. */
  peersFor(sessionId: string): SessionPeers {
    const { bus, events } = this.cluster;
    const publish = (to: string, message: ClusterMessage): void => {
      bus.publish(to, message).catch(this.deps.report);
    };
    return {
      instanceId: bus.instanceId,
      events,
      forward: (message, relatedRequestId) =>
        publish('others', {
          kind: 'deliver',
          sessionId,
          message,
          ...(relatedRequestId !== undefined ? { relatedRequestId } : {}),
        }),
      claimListener: () => publish('others', { kind: 'listener', sessionId }),
    };
  }

  /**
   * How a session's state is saved: recorded in the directory when it is first negotiated
   * (`initialize` is answered only then), later updated and announced to the other replicas.
   * `owner` is the session's owner as the directory stores it (sessionOwner.ts `encodeOwner`).
   */
  persistFor(
    sessionId: string,
    owner: string | undefined,
    recorded: boolean,
  ): (state: JsonObject) => Promise<void> {
    let exists = recorded;
    return async (state) => {
      const { sessions, bus } = this.cluster;
      if (!exists) {
        await sessions.create({ sessionId, record: { owner, state }, ttlMs: this.deps.idleMs });
        exists = true;
        this.touchedAt.set(sessionId, Date.now());
        return;
      }
      if (!(await sessions.update({ sessionId, state })))
        throw new Error(`Session ${sessionId} is no longer in the directory`);
      await bus.publish('others', { kind: 'session-state', sessionId, state });
    };
  }

  /** Finds a session another instance created and serves it here from now on. */
  adopt(sessionId: string, identity: Identity | undefined): Promise<Adoption> {
    let pending = this.adopting.get(sessionId);
    if (!pending) {
      pending = this.load(sessionId).finally(() => this.adopting.delete(sessionId));
      this.adopting.set(sessionId, pending);
    }
    return pending.then((adoption) =>
      adoption.ok && !isOwner(adoption.session.owner, identity)
        ? { ok: false, failure: 'unknownSession' }
        : adoption,
    );
  }

  /**
   * True when the directory holds this session and it belongs to `identity` (whichever instance
   * serves it). Throws when the directory cannot be read.
   */
  async owns(sessionId: string, identity: Identity | undefined): Promise<boolean> {
    await this.ready;
    const record = await this.cluster.sessions.get(sessionId);
    return record !== undefined && isOwner(decodeOwner(record.owner), identity);
  }

  private async load(sessionId: string): Promise<Adoption> {
    let record;
    try {
      record = await this.cluster.sessions.get(sessionId);
    } catch (error) {
      this.deps.report(error);
      return { ok: false, failure: 'storeUnavailable' };
    }
    if (!record) return { ok: false, failure: 'unknownSession' };
    const existing = this.deps.registry.peek(sessionId);
    if (existing) return { ok: true, session: existing };
    if (!this.deps.registry.hasRoom()) return { ok: false, failure: 'tooManySessions' };
    // The whole binding (issuer, subject, client) comes along, not just the principal's id.
    const owner = decodeOwner(record.owner);
    const transport = new HttpSessionTransport(sessionId, this.deps.settings, {
      owner,
      peers: this.peersFor(sessionId),
    });
    let handle;
    try {
      handle = await this.deps.connect(transport, {
        sessionId,
        ...(owner !== undefined ? { identity: owner } : {}),
        restore: record.state,
        persist: this.persistFor(sessionId, record.owner, true),
      });
    } catch (error) {
      // A state this server cannot restore (another version of the server wrote it).
      this.deps.report(error);
      return { ok: false, failure: 'unknownSession' };
    }
    const session: LiveSession<HttpSessionTransport> = {
      transport,
      handle,
      owner,
      lastActivity: () => transport.lastActivity,
      listening: () => transport.listening,
      dropListener: () => transport.dropListener(),
    };
    this.deps.registry.add(sessionId, session);
    this.touchedAt.set(sessionId, Date.now());
    const previous = transport.onclose;
    transport.onclose = () => {
      this.touchedAt.delete(sessionId);
      previous?.();
    };
    return { ok: true, session };
  }

  /** Keeps a session in use from expiring (at most a few directory writes per idle period). */
  touch(sessionId: string): void {
    const now = Date.now();
    if (now - (this.touchedAt.get(sessionId) ?? 0) < this.deps.idleMs / 4) return;
    this.touchedAt.set(sessionId, now);
    this.cluster.sessions
      .touch({ sessionId, ttlMs: this.deps.idleMs })
      .catch((error: unknown) => this.deps.report(error));
  }

  /**
   * Sends on the client messages another instance must see: a response to a request that
   * instance sent goes to it alone; notifications (cancellations...) go to every instance, and
   * are handled here too. `classified` is what the handler already made of each message. Returns
   * the messages to handle here.
   */
  route(
    sessionId: string,
    messages: readonly unknown[],
    classified: readonly Classified[],
  ): unknown[] {
    const local: unknown[] = [];
    for (const [i, message] of messages.entries()) {
      const c = classified[i] as Classified;
      if (c.kind === 'response') {
        const owner = instanceOfRequestId(c.message.id);
        if (owner !== undefined && owner !== this.cluster.bus.instanceId) {
          this.publish(owner, { kind: 'client-message', sessionId, message: c.message });
          continue;
        }
      } else if (c.kind === 'notification' && !LOCAL_NOTIFICATIONS.has(c.message.method)) {
        this.publish('others', { kind: 'client-message', sessionId, message: c.message });
      }
      local.push(message);
    }
    return local;
  }

  /** Ends a session for every instance: out of the directory, replicas closed. */
  async endEverywhere(sessionId: string): Promise<void> {
    await this.cluster.sessions.delete(sessionId);
    await this.cluster.bus.publish('others', { kind: 'session-ended', sessionId });
  }

  /** Stops listening to the bus. */
  close(): void {
    this.unsubscribe?.();
  }

  private publish(to: string, message: ClusterMessage): void {
    this.cluster.bus.publish(to, message).catch(this.deps.report);
  }

  private onBusMessage(message: ClusterMessage): void {
    if (message.kind === 'app') return;
    const session = this.deps.registry.peek(message.sessionId);
    if (!session) return;
    const transport = session.transport;
    switch (message.kind) {
      case 'client-message':
        transport.receiveFromPeer(message.message);
        break;
      case 'deliver':
        transport.deliverFromPeer(message.message, message.relatedRequestId);
        break;
      case 'session-state':
        session.handle.applyState?.(message.state);
        break;
      case 'session-ended':
        session.handle.close().catch(this.deps.report);
        break;
      case 'listener':
        transport.releaseListener();
        break;
    }
  }
}

/**
 * @module The sessions of a Streamable HTTP handler: finding the one a request names (or, in a
 * cluster, adopting one another instance created), refusing a second `initialize` on a live
 * one, and creating new ones under the server-wide cap and the per-caller quota. The handler
 * (streamableHttp.ts) routes requests; this is what it asks about sessions.
 */
import type { Identity } from '../../../../jsonrpc/transport.js';
import type { Caller } from '../caller.js';
import { sessionVersionProblem } from '../eras/rev2025.js';
import type { HttpExchange, HttpReply } from '../exchange.js';
import type { StreamableHttpOptions } from '../handlerOptions.js';
import { failureReply } from '../httpStatus.js';
import { ClusterSessions } from './cluster/clusterSessions.js';
import { HttpSessionTransport, randomToken, type SessionSettings } from './httpSession.js';
import { MemoryEventStore } from './memoryEventStore.js';
import { encodeOwner, ownerOf } from './sessionOwner.js';
import { principalKey, type SessionQuota } from './sessionQuota.js';
import { SessionRegistry, type LiveSession } from './sessionRegistry.js';

/** A session a request names, or the reply refusing the request. */
export type Found = LiveSession<HttpSessionTransport> | HttpReply;

/**
 * The answer to a request that arrives during shutdown. `Connection: close` makes the client
 * open a new connection for its next request (to another instance, or later to this one once
 * restarted) instead of reusing one this process is about to drop.
 */
export function shuttingDown(): HttpReply {
  return failureReply('shuttingDown', 'The server is shutting down', { connection: 'close' });
}

function storeUnavailable(): HttpReply {
  return failureReply('storeUnavailable', 'The session store is unavailable; try again', {
    'retry-after': '1',
  });
}

function tooManySessions(): HttpReply {
  return failureReply('tooManySessions', 'Too many sessions; try again later', {
    'retry-after': '5',
  });
}

/** What the sessions share with the rest of the handler. */
export interface SessionsContext {
  /** Counts sessions per caller (shared with the HTTP+SSE endpoints). */
  readonly quota: SessionQuota;
  readonly report: (error: unknown) => void;
}

/** The live Streamable HTTP sessions of one handler. */
export class StreamableSessions {
  readonly registry: SessionRegistry<HttpSessionTransport>;
  /** Sharing sessions with other instances, with the `cluster` option (not in stateless mode). */
  readonly cluster: ClusterSessions | undefined;
  /** Set by the handler's close(): no new session starts. */
  closing = false;
  private readonly settings: SessionSettings;
  private readonly stateless: boolean;

  constructor(
    private readonly options: StreamableHttpOptions,
    private readonly context: SessionsContext,
  ) {
    const report = context.report;
    this.stateless = options.stateless === true;
    this.registry = new SessionRegistry(
      { maxSessions: options.maxSessions ?? 10_000, idleMs: options.sessionIdleMs ?? 30 * 60_000 },
      report,
    );
    this.settings = {
      eventStore:
        options.cluster?.events ??
        options.eventStore ??
        new MemoryEventStore({
          ondrop: ({ streamId, sessionId }) =>
            report(
              new Error(
                `SSE stream ${streamId} of session ${sessionId}: the client is not reading or resuming; its oldest waiting notifications are dropped (progress is coalesced, responses are kept)`,
              ),
            ),
        }),
      retryMs: options.retryMs ?? 1000,
      responseMode: options.responseMode ?? 'adaptive',
      sseAfterMs: options.sseAfterMs ?? 1000,
      report,
    };
    this.cluster =
      options.cluster && !options.stateless
        ? new ClusterSessions(options.cluster, {
            registry: this.registry,
            connect: options.connect,
            settings: this.settings,
            idleMs: options.sessionIdleMs ?? 30 * 60_000,
            report,
          })
        : undefined;
  }

  /**
   * The session a request names: one of this instance's (found without waiting: awaiting costs a
   * turn of the microtask queue per request), or, in a cluster, one another instance created,
   * which is served here from now on.
   */
  find(exchange: HttpExchange, identity: Identity | undefined): Found | Promise<Found> {
    const sessionId = exchange.header('mcp-session-id');
    const found = this.registry.lookup(sessionId, identity);
    if (typeof found !== 'string') {
      if (sessionId !== null) this.cluster?.touch(sessionId);
      return sessionVersionProblem(exchange, found.handle.protocolVersion) ?? found;
    }
    if (found === 'unknownSession' && this.cluster && sessionId !== null)
      return this.adopt(this.cluster, exchange, { sessionId, identity });
    return failureReply(
      found,
      found === 'missingSession' ? 'MCP-Session-Id header required' : 'Session not found',
    );
  }

  /** A session another instance of the cluster created, served here from now on. */
  private async adopt(
    cluster: ClusterSessions,
    exchange: HttpExchange,
    named: { sessionId: string; identity: Identity | undefined },
  ): Promise<Found> {
    await cluster.ready;
    const adopted = await cluster.adopt(named.sessionId, named.identity);
    if (adopted.ok)
      return (
        sessionVersionProblem(exchange, adopted.session.handle.protocolVersion) ?? adopted.session
      );
    if (adopted.failure === 'storeUnavailable') return storeUnavailable();
    if (adopted.failure === 'tooManySessions') return tooManySessions();
    return failureReply('unknownSession', 'Session not found');
  }

  /**
   * An `initialize` that names a live session of its caller (`MCP-Session-Id`) is refused: a
   * session is initialized once, and a new one starts without the header. The live session is
   * left as it is. An id that names no session of the caller is ignored, as before (a client
   * re-initializing after a 404 may still send its old id).
   */
  async liveSessionProblem(
    exchange: HttpExchange,
    identity: Identity | undefined,
  ): Promise<HttpReply | undefined> {
    const sessionId = exchange.header('mcp-session-id');
    if (sessionId === null || sessionId === '') return undefined;
    let live = typeof this.registry.lookup(sessionId, identity) !== 'string';
    if (!live && this.cluster) {
      try {
        live = await this.cluster.owns(sessionId, identity);
      } catch (error) {
        this.context.report(error);
        return storeUnavailable();
      }
    }
    return live
      ? failureReply(
          'alreadyInitialized',
          'This session is already initialized; a new session starts with an initialize request without MCP-Session-Id',
        )
      : undefined;
  }

  /** A new session for `caller` (any POST in stateless mode), or the reply refusing it. */
  async create(
    caller: Caller,
    assumeVersion: string | undefined,
  ): Promise<HttpSessionTransport | HttpReply> {
    const identity = caller.identity;
    if (this.closing) return shuttingDown();
    if (!this.stateless && !this.registry.hasRoom()) return tooManySessions();
    let release: () => void = () => {};
    if (!this.stateless) {
      const quota = this.context.quota;
      const taken = quota.take(principalKey(identity, caller.clientAddress));
      if (!taken)
        return failureReply(
          'tooManyCallerSessions',
          `Too many sessions for this caller (at most ${quota.perPrincipal}): end unused ones with DELETE, or wait until they expire`,
        );
      release = taken;
    }
    try {
      return await this.start(caller, assumeVersion, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Creates the transport and the server side of a new session (counted by `release`). */
  private async start(
    caller: Caller,
    assumeVersion: string | undefined,
    release: () => void,
  ): Promise<HttpSessionTransport> {
    const identity = caller.identity;
    const stateless = this.stateless;
    const sessionId = stateless ? undefined : randomToken(24);
    const cluster = sessionId !== undefined ? this.cluster : undefined;
    if (cluster) await cluster.ready;
    const owner = ownerOf(identity);
    const transport = new HttpSessionTransport(
      sessionId,
      { ...this.settings, ephemeral: stateless },
      {
        owner,
        peers: cluster && sessionId !== undefined ? cluster.peersFor(sessionId) : undefined,
      },
    );
    const handle = await this.options.connect(transport, {
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(identity ? { identity } : {}),
      ...(caller.clientAddress !== undefined ? { clientAddress: caller.clientAddress } : {}),
      ...(assumeVersion !== undefined ? { assumeVersion } : {}),
      ...(stateless ? { transient: true } : {}),
      ...(cluster && sessionId !== undefined
        ? { persist: cluster.persistFor(sessionId, encodeOwner(owner), false) }
        : {}),
    });
    if (sessionId !== undefined) {
      this.registry.add(sessionId, {
        transport,
        handle,
        owner,
        lastActivity: () => transport.lastActivity,
        listening: () => transport.listening,
        dropListener: () => transport.dropListener(),
      });
      const closed = transport.onclose;
      transport.onclose = () => {
        release();
        closed?.();
      };
    }
    return transport;
  }

  /** Ends a session everywhere (DELETE): in a cluster, its record first; then the session. */
  async end(found: LiveSession<HttpSessionTransport>): Promise<HttpReply | undefined> {
    if (this.cluster && found.transport.sessionId !== undefined) {
      try {
        await this.cluster.endEverywhere(found.transport.sessionId);
      } catch (error) {
        this.context.report(error);
        return storeUnavailable();
      }
      found.transport.sessionEnded = true;
    }
    await found.handle.close();
    return undefined;
  }
}

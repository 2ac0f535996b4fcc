/**
 * @module The server's instrumentation hooks beyond middleware: for each session, an observer of
 * what no middleware sees (`initialize`, notifications both ways, the server's own requests to
 * the client, the session's end). A middleware carries them (`Middleware.instrumentation`;
 * `serverTelemetry()` of `toolwire/otel` does) and `server.use()` installs them. Without any,
 * a session builds nothing of it and its connection runs no hook.
 */
import type { SessionObserver } from '../../jsonrpc/interceptors.js';
import type { TransportNetwork } from '../../jsonrpc/transport.js';
import type { Revision } from '../../protocol/versions.js';

export type { IncomingRequestView, SessionObserver } from '../../jsonrpc/interceptors.js';

/** What instrumentation knows of a server session; read when needed, it stays current. */
export interface ServerSessionView {
  /** The session id (the `Mcp-Session-Id` over Streamable HTTP). */
  readonly id: string;
  /**
   * The negotiated revision; undefined until `initialize` is answered (on a connection opened in
   * the 2026 era: the revision its last request named).
   */
  readonly protocolVersion: Revision | undefined;
  /** How its messages travel (`pipe`, `tcp`, `inproc`), when the transport says. */
  readonly networkTransport: 'pipe' | 'tcp' | 'inproc' | undefined;
  /** What the transport knows of the network (`http`...), when it says. */
  readonly network: TransportNetwork | undefined;
  /** True when the session lives for one request (stateless HTTP): it is no session to time. */
  readonly transient: boolean;
}

/** Server instrumentation: called once per session as it starts. */
export interface ServerInstrumentation {
  /** Observes `session` until it ends; undefined to leave it alone. */
  session(session: ServerSessionView): SessionObserver | undefined;
}

/** One observer doing what each of `observers` does, the first outermost. */
export function combinedObserver(
  observers: readonly SessionObserver[],
): SessionObserver | undefined {
  if (observers.length <= 1) return observers[0];
  const each = <K extends keyof SessionObserver>(key: K) =>
    observers.flatMap((o) => (o[key] ? [o[key]] : [])) as Array<NonNullable<SessionObserver[K]>>;
  const incoming = each('incomingRequest');
  const notified = each('incomingNotification');
  const requests = each('outgoingRequest');
  const notifications = each('outgoingNotification');
  const ended = each('ended');
  // A member none of them has stays absent: the connection then runs no hook for it.
  return {
    ...(incoming.length === 0
      ? {}
      : {
          incomingRequest: (request, handle) =>
            incoming.reduceRight<() => ReturnType<typeof handle>>(
              (inner, hook) => () => hook(request, inner),
              handle,
            )(),
        }),
    ...(notified.length === 0
      ? {}
      : {
          incomingNotification: (notification, info, handle) =>
            notified.reduceRight<() => void>(
              (inner, hook) => () => hook(notification, info, inner),
              handle,
            )(),
        }),
    ...(requests.length === 0
      ? {}
      : {
          outgoingRequest: (request, send) =>
            requests.reduceRight<typeof send>(
              (inner, hook) => (params) => hook({ ...request, params }, inner),
              send,
            )(request.params),
        }),
    ...(notifications.length === 0
      ? {}
      : {
          outgoingNotification: (notification, send) =>
            notifications.reduceRight<typeof send>(
              (inner, hook) => (params) => hook({ ...notification, params }, inner),
              send,
            )(notification.params),
        }),
    ended: (outcome) => {
      for (const hook of ended) hook(outcome);
    },
  };
}

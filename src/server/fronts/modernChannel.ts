/**
 * @module How a 2026 request's handlers reach the client: notifications related to the request
 * (progress, log messages), on the connection (stdio) or on the request's own response stream
 * (Streamable HTTP). Servers of this era send no requests, so there is nothing else.
 */
import type { Identity, TransportNetwork } from '../../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../../jsonrpc/types.js';

/** Where a 2026 request came from and how to send it notifications. */
export interface ModernChannel {
  /** Sends a notification related to request `relatedRequestId`; a failure to send is dropped. */
  notify(method: string, params: JsonObject, relatedRequestId: RequestId): void;
  /** The caller, when the connection established it (a message may bring its own). */
  readonly identity: Identity | undefined;
  /** The caller's network address, when known. */
  readonly clientAddress: string | undefined;
  /** How messages travel (OpenTelemetry `network.transport`), when known. */
  readonly networkTransport: 'pipe' | 'tcp' | 'inproc' | undefined;
  /** What the transport knows of the network (HTTP), when it says. */
  readonly network: TransportNetwork | undefined;
}

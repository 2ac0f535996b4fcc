/**
 * @module A connection (stdio, in memory) whose client opened in the 2026 era: every request on it
 * is served by the 2026 front on its own, and notifications related to a request go out on the
 * same connection (stdio has no per-request streams; the client matches them by request id and
 * progress token).
 */
import type { Connection, IncomingRequestContext } from '../../jsonrpc/connection.js';
import type { Identity, TransportNetwork } from '../../jsonrpc/transport.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../../jsonrpc/types.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import { META } from '../../protocol/eras/rev2026/requestMeta.js';
import { isModernVersion, type ModernProtocolVersion } from '../../protocol/versions.js';
import type { HandlerOutcome } from '../dispatch/handlerTable.js';
import type { ModernChannel } from './modernChannel.js';
import type { ModernFront } from './modernFront.js';

/** The 2026 side of one connection. */
export class ModernConnection implements ModernChannel {
  readonly networkTransport: 'pipe' | 'tcp' | 'inproc' | undefined;
  readonly network: TransportNetwork | undefined;

  constructor(
    private readonly front: ModernFront,
    private readonly connection: Connection,
    caller: { identity: Identity | undefined; clientAddress: string | undefined },
  ) {
    this.identity = caller.identity;
    this.clientAddress = caller.clientAddress;
    this.networkTransport = connection.transport.networkTransport;
    this.network = connection.transport.network;
  }

  readonly identity: Identity | undefined;
  readonly clientAddress: string | undefined;
  /** The revision the connection's last request named in its `_meta`, when the server serves it. */
  protocolVersion: ModernProtocolVersion | undefined;

  /** Serves one request of the connection. */
  serve(request: JsonRpcRequest, context: IncomingRequestContext): HandlerOutcome {
    const meta = request.params?.['_meta'];
    const version = isPlainObject(meta) ? meta[META.protocolVersion] : undefined;
    if (isModernVersion(version)) this.protocolVersion = version;
    return this.front.serve(request, context, this);
  }

  notify(method: string, params: JsonObject, relatedRequestId: RequestId): void {
    this.connection.notify(method, params, { relatedRequestId }).catch(() => {});
  }
}

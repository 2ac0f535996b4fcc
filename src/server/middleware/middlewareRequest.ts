/**
 * @module The request object middleware see: plain fields set once, the abort signal created only
 * if a middleware reads it.
 */
import type {
  Identity,
  MessageInfo,
  PeerAddress,
  TransportNetwork,
} from '../../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../../jsonrpc/types.js';
import type { Tool } from '../../protocol/types.js';
import type { MiddlewareRequest } from './middleware.js';
import type { SessionInfo } from '../toolContext.js';

/** How a request arrived, as the session knows it. */
export type NetworkTransport = MiddlewareRequest['networkTransport'];

/** The fields of a {@link PolicyRequest}. */
export type PolicyRequestFields = Omit<MiddlewareRequest, 'signal' | 'peer' | 'httpVersion'>;

/** One request as the middleware chain carries it. */
export class PolicyRequest implements MiddlewareRequest {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly requestId: RequestId;
  readonly session: SessionInfo;
  readonly identity: Identity | undefined;
  readonly clientAddress: string | undefined;
  readonly networkTransport: NetworkTransport;
  readonly network: TransportNetwork | undefined;
  readonly tool: Tool | undefined;

  constructor(
    fields: PolicyRequestFields,
    /**
     * The request as the connection tracks it, read only when a middleware asks: for the signal
     * (most requests never create one) and what the transport told of the message.
     */
    private readonly source: {
      readonly cancellation: { readonly signal: AbortSignal };
      readonly info?: MessageInfo | undefined;
    },
  ) {
    this.method = fields.method;
    this.params = fields.params;
    this.requestId = fields.requestId;
    this.session = fields.session;
    this.identity = fields.identity;
    this.clientAddress = fields.clientAddress;
    this.networkTransport = fields.networkTransport;
    this.network = fields.network;
    this.tool = fields.tool;
  }

  get signal(): AbortSignal {
    return this.source.cancellation.signal;
  }

  get peer(): PeerAddress | undefined {
    return this.source.info?.peer;
  }

  get httpVersion(): string | undefined {
    return this.source.info?.httpVersion;
  }
}

/**
 * @module Answering the requests a server sends to the client (sampling, elicitation, roots,
 * ping) with the application's handlers; a request without a handler is -32601.
 */
import { ErrorCode, RpcError } from '../jsonrpc/errors.js';
import type { IncomingRequestContext } from '../jsonrpc/incomingRequest.js';
import { isPlainObject } from '../jsonrpc/guards.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../jsonrpc/types.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitParams,
  ElicitResult,
  Meta,
  Root,
} from '../protocol/types.js';

/** What a client-side handler learns about the server's request. */
export interface ServerRequestContext {
  readonly requestId: RequestId;
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  readonly meta: Meta | undefined;
}

/** The application's answers to server requests. */
export interface ClientHandlers {
  /** Runs a completion for the server (declares the `sampling` capability). */
  sampling?: (
    params: CreateMessageParams,
    context: ServerRequestContext,
  ) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Asks the user (declares the `elicitation` capability). */
  elicitation?: (
    params: ElicitParams,
    context: ServerRequestContext,
  ) => ElicitResult | Promise<ElicitResult>;
  /** Lists the client's roots (declares the `roots` capability). */
  roots?: (context: ServerRequestContext) => Root[] | Promise<Root[]>;
}

/** Capability options that go with the handlers. */
export interface HandlerCapabilityOptions {
  /** Declare tool use in sampling (2025-11-25). */
  samplingTools?: boolean;
  /** Elicitation modes the handler supports. Default `['form']`. */
  elicitationModes?: ReadonlyArray<'form' | 'url'>;
}

/** The capabilities the given handlers imply. */
export function capabilitiesFor(
  handlers: ClientHandlers,
  options: HandlerCapabilityOptions,
): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (handlers.sampling) caps.sampling = options.samplingTools ? { tools: {} } : {};
  if (handlers.elicitation) {
    const modes = options.elicitationModes ?? ['form'];
    caps.elicitation = {};
    if (modes.includes('form')) caps.elicitation.form = {};
    if (modes.includes('url')) caps.elicitation.url = {};
  }
  if (handlers.roots) caps.roots = { listChanged: true };
  return caps;
}

/**
 * Fills fields the user left empty with the defaults of the requested schema (SEP-1034), so the
 * server receives the values the form showed.
 */
export function withSchemaDefaults(params: ElicitFormParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept') return result;
  const content = { ...result.content };
  for (const [key, property] of Object.entries(params.requestedSchema.properties)) {
    const fallback = property['default'];
    if (content[key] === undefined && fallback !== undefined) {
      content[key] = fallback as string | number | boolean | string[];
    }
  }
  return { ...result, content };
}

function missing(method: string): RpcError {
  return new RpcError(ErrorCode.MethodNotFound, `Client does not support ${method}`);
}

/** Dispatches one server request to the handlers. */
export async function answerServerRequest(
  handlers: ClientHandlers,
  request: JsonRpcRequest,
  incoming: IncomingRequestContext,
): Promise<JsonObject> {
  const params = request.params ?? {};
  const meta = isPlainObject(params['_meta']) ? params['_meta'] : undefined;
  const context: ServerRequestContext = { requestId: request.id, signal: incoming.signal, meta };
  switch (request.method) {
    case 'ping':
      return {};
    case 'sampling/createMessage': {
      if (!handlers.sampling) throw missing(request.method);
      if (!Array.isArray(params['messages']) || typeof params['maxTokens'] !== 'number') {
        throw new RpcError(
          ErrorCode.InvalidParams,
          'sampling/createMessage needs "messages" and a numeric "maxTokens"',
        );
      }
      return (await handlers.sampling(
        params as unknown as CreateMessageParams,
        context,
      )) as unknown as JsonObject;
    }
    case 'elicitation/create': {
      if (!handlers.elicitation) throw missing(request.method);
      if (typeof params['message'] !== 'string') {
        throw new RpcError(ErrorCode.InvalidParams, 'elicitation/create needs a string "message"');
      }
      const elicit = params as unknown as ElicitParams;
      const result = await handlers.elicitation(elicit, context);
      const answered =
        elicit.mode === 'url' || !isPlainObject(params['requestedSchema'])
          ? result
          : withSchemaDefaults(elicit, result);
      return answered as unknown as JsonObject;
    }
    case 'roots/list': {
      if (!handlers.roots) throw missing(request.method);
      return { roots: await handlers.roots(context) };
    }
    default:
      throw new RpcError(
        ErrorCode.MethodNotFound,
        `Method not found: ${request.method.slice(0, 200)}`,
      );
  }
}

/**
 * @module Answering the requests a server sends to the client (sampling, elicitation, roots,
 * ping) with the application's handlers; a request without a handler is -32601.
 */
import { ErrorCode, LocalError, RpcError } from '../jsonrpc/errors.js';
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
  ElicitUrlParams,
  Meta,
  Root,
} from '../protocol/types.js';
import { checkElicitationUrl } from './elicitationUrl.js';

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

/**
 * The elicitation modes a client declares: `elicitationModes`, or form alone (an empty
 * `elicitation` capability means form, so an empty list does too).
 */
export function elicitationModesOf(
  options: HandlerCapabilityOptions,
): ReadonlyArray<'form' | 'url'> {
  const modes = options.elicitationModes;
  return modes !== undefined && modes.length > 0 ? modes : ['form'];
}

/** The capabilities the given handlers imply. */
export function capabilitiesFor(
  handlers: ClientHandlers,
  options: HandlerCapabilityOptions,
): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (handlers.sampling) caps.sampling = options.samplingTools ? { tools: {} } : {};
  if (handlers.elicitation) {
    const modes = elicitationModesOf(options);
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

/** What {@link answerServerRequest} needs of the client. */
export interface ServerRequestHost {
  readonly handlers: ClientHandlers;
  /** The elicitation modes the client declared. */
  readonly elicitationModes: ReadonlyArray<'form' | 'url'>;
  /** Faults that are answered, not thrown (a URL elicitation declined for its URL). */
  readonly report: (error: Error) => void;
}

function missing(method: string): RpcError {
  return new RpcError(ErrorCode.MethodNotFound, `Client does not support ${method}`);
}

/**
 * The params of an `elicitation/create` the client can answer: a string `message`, a mode the
 * client declared (absent means form), and for URL mode a string `url` and `elicitationId`.
 * Anything else is -32602, as the spec asks for an undeclared mode.
 */
function elicitParams(
  params: JsonObject,
  modes: ReadonlyArray<'form' | 'url'>,
): ElicitFormParams | ElicitUrlParams {
  if (typeof params['message'] !== 'string')
    throw new RpcError(ErrorCode.InvalidParams, 'elicitation/create needs a string "message"');
  const mode = params['mode'] ?? 'form';
  if ((mode !== 'form' && mode !== 'url') || !modes.includes(mode))
    throw new RpcError(
      ErrorCode.InvalidParams,
      `This client does not support elicitation mode ${JSON.stringify(mode).slice(0, 100)} (it declared ${modes.join(', ')})`,
    );
  if (mode === 'url') {
    if (typeof params['url'] !== 'string' || typeof params['elicitationId'] !== 'string')
      throw new RpcError(
        ErrorCode.InvalidParams,
        'A URL-mode elicitation/create needs a string "url" and "elicitationId"',
      );
    return params as unknown as ElicitUrlParams;
  }
  // A form is generated from the schema: one the client could not read is refused here, in the
  // protocol's terms, rather than failing in the handler after the user started answering.
  const schema = params['requestedSchema'];
  if (
    !isPlainObject(schema) ||
    !isPlainObject(schema['properties']) ||
    !Object.values(schema['properties']).every(isPlainObject) ||
    (schema['required'] !== undefined &&
      !(
        Array.isArray(schema['required']) &&
        schema['required'].every((name) => typeof name === 'string')
      ))
  )
    throw new RpcError(
      ErrorCode.InvalidParams,
      'A form elicitation/create needs a "requestedSchema" object whose "properties" are schemas',
    );
  return params as unknown as ElicitFormParams;
}

/** Dispatches one server request to the handlers. */
export async function answerServerRequest(
  host: ServerRequestHost,
  request: JsonRpcRequest,
  incoming: Pick<IncomingRequestContext, 'signal'>,
): Promise<JsonObject> {
  const handlers = host.handlers;
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
      const elicit = elicitParams(params, host.elicitationModes);
      if (elicit.mode === 'url') {
        const checked = checkElicitationUrl(elicit.url);
        if (!checked.ok) {
          // The user never sees it: answered as their refusal would be (the spec's "decline").
          host.report(
            new LocalError('denied', `Declined a URL-mode elicitation: ${checked.reason}`),
          );
          return { action: 'decline' };
        }
        const result = await handlers.elicitation({ ...elicit, url: checked.url.href }, context);
        return result as unknown as JsonObject;
      }
      const result = await handlers.elicitation(elicit, context);
      return withSchemaDefaults(elicit, result) as unknown as JsonObject;
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

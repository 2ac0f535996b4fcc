/**
 * @module Answering the requests a server sends to the client (sampling, elicitation, roots,
 * ping) with the application's handlers, through one table keyed by the methods' descriptors: a
 * method the table lacks is -32601 by absence, and so is one whose handler the application did
 * not give.
 */
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import type { IncomingRequestContext } from '../../jsonrpc/incomingRequest.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/types.js';
import type { CreateMessageParams } from '../../protocol/types.js';
import { CreateMessage, Elicit, ListRoots, methodNotFound, Ping } from '../../protocol/methods.js';
import { answerElicitation, type ElicitationHost } from './elicitation.js';
import { notSupported, type ServerRequestContext } from './handlers.js';

export type { ClientHandlers, HandlerCapabilityOptions, ServerRequestContext } from './handlers.js';
export { capabilitiesFor, elicitationModesOf } from './handlers.js';
export { withSchemaDefaults } from './elicitation.js';

/** What {@link answerServerRequest} needs of the client. */
export type ServerRequestHost = ElicitationHost;

/** One entry of the table: answers the request, or throws the JSON-RPC error to answer with. */
type Answer = (
  host: ServerRequestHost,
  params: JsonObject,
  context: ServerRequestContext,
) => JsonObject | Promise<JsonObject>;

async function answerSampling(
  host: ServerRequestHost,
  params: JsonObject,
  context: ServerRequestContext,
): Promise<JsonObject> {
  const sampling = host.handlers.sampling;
  if (!sampling) throw notSupported(CreateMessage.method);
  if (!Array.isArray(params['messages']) || typeof params['maxTokens'] !== 'number') {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `${CreateMessage.method} needs "messages" and a numeric "maxTokens"`,
    );
  }
  return (await sampling(
    params as unknown as CreateMessageParams,
    context,
  )) as unknown as JsonObject;
}

async function answerRoots(
  host: ServerRequestHost,
  _params: JsonObject,
  context: ServerRequestContext,
): Promise<JsonObject> {
  const roots = host.handlers.roots;
  if (!roots) throw notSupported(ListRoots.method);
  return { roots: await roots(context) };
}

/** The requests a server may send the client, by method name (from the descriptors). */
const ANSWERS: ReadonlyMap<string, Answer> = new Map<string, Answer>([
  [Ping.method, () => ({})],
  [CreateMessage.method, answerSampling],
  [Elicit.method, answerElicitation],
  [ListRoots.method, answerRoots],
]);

/** The methods whose requests the application's handlers answer (a ping needs none). */
export const INPUT_METHODS: ReadonlySet<string> = new Set([
  Elicit.method,
  CreateMessage.method,
  ListRoots.method,
]);

/** Answers one server request with the handlers. */
export async function answerServerRequest(
  host: ServerRequestHost,
  request: JsonRpcRequest,
  incoming: Pick<IncomingRequestContext, 'signal'>,
): Promise<JsonObject> {
  const answer = ANSWERS.get(request.method);
  if (!answer) throw methodNotFound(request.method);
  const params = request.params ?? {};
  const meta = isPlainObject(params['_meta']) ? params['_meta'] : undefined;
  const context: ServerRequestContext = { requestId: request.id, signal: incoming.signal, meta };
  return answer(host, params, context);
}

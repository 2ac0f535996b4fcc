/**
 * @module Answering an elicitation: its params checked against the modes the client declared, a
 * URL-mode request's URL checked before the user sees it, and a form's answer completed with the
 * schema's defaults.
 */
import { ErrorCode, LocalError, RpcError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { ElicitFormParams, ElicitResult, ElicitUrlParams } from '../../protocol/types.js';
import { Elicit } from '../../protocol/methods.js';
import { checkElicitationUrl } from './elicitationUrl.js';
import { notSupported, type ClientHandlers, type ServerRequestContext } from './handlers.js';

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
    throw new RpcError(ErrorCode.InvalidParams, `${Elicit.method} needs a string "message"`);
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
        `A URL-mode ${Elicit.method} needs a string "url" and "elicitationId"`,
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
      `A form ${Elicit.method} needs a "requestedSchema" object whose "properties" are schemas`,
    );
  return params as unknown as ElicitFormParams;
}

/** What answering an elicitation needs besides the handler. */
export interface ElicitationHost {
  readonly handlers: ClientHandlers;
  /** The elicitation modes the client declared. */
  readonly elicitationModes: ReadonlyArray<'form' | 'url'>;
  /** Faults that are answered, not thrown (a URL elicitation declined for its URL). */
  readonly report: (error: Error) => void;
}

/** Answers one elicitation with the application's handler. */
export async function answerElicitation(
  host: ElicitationHost,
  params: JsonObject,
  context: ServerRequestContext,
): Promise<JsonObject> {
  const handler = host.handlers.elicitation;
  if (!handler) throw notSupported(Elicit.method);
  const elicit = elicitParams(params, host.elicitationModes);
  if (elicit.mode === 'url') {
    const checked = checkElicitationUrl(elicit.url);
    if (!checked.ok) {
      // The user never sees it: answered as their refusal would be (the spec's "decline").
      host.report(new LocalError('denied', `Declined a URL-mode elicitation: ${checked.reason}`));
      return { action: 'decline' };
    }
    const result = await handler({ ...elicit, url: checked.url.href }, context);
    return result as unknown as JsonObject;
  }
  const result = await handler(elicit, context);
  return withSchemaDefaults(elicit, result) as unknown as JsonObject;
}

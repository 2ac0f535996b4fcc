/**
 * @module The application's side of the server's requests (sampling, elicitation, roots): the
 * handlers it gives the client, what each one learns of the request, and the capabilities the
 * handlers imply. Whether a request arrives pushed (2025) or inside an `input_required` result
 * (2026-07-28), the same handlers answer it.
 */
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import type { RequestId } from '../../jsonrpc/types.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Meta,
  Root,
} from '../../protocol/types.js';

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

/** The -32601 a request is answered with when the application gave no handler for it. */
export function notSupported(method: string): RpcError {
  return new RpcError(ErrorCode.MethodNotFound, `Client does not support ${method}`);
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

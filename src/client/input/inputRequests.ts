/**
 * @module Answering a 2026-07-28 `input_required` result (multi round-trip requests): each input
 * request the server names (`elicitation/create`, `sampling/createMessage`, `roots/list`) is
 * answered by the client's handler for it, as if the server had sent it as a request, and the
 * answers go back keyed as the server keyed the requests.
 */
import { LocalError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { answerServerRequest, INPUT_METHODS, type ServerRequestHost } from './serverRequests.js';

/**
 * Requests for input one answer may take: each is put to the application (a person, often), so a
 * server cannot ask without end.
 */
export const MAX_INPUT_REQUESTS = 32;

/** The `inputResponses` for `inputRequests` (undefined when the server named none). */
export async function answerInputRequests(
  host: ServerRequestHost,
  inputRequests: unknown,
  signal: AbortSignal | undefined,
): Promise<JsonObject | undefined> {
  if (inputRequests === undefined) return undefined;
  if (!isPlainObject(inputRequests))
    throw new LocalError('invalid-response', 'The input_required result has no inputRequests map');
  const count = Object.keys(inputRequests).length;
  if (count > MAX_INPUT_REQUESTS)
    throw new LocalError(
      'invalid-response',
      `The server asked for ${count} inputs at once; this client answers at most ${MAX_INPUT_REQUESTS}`,
    );
  const answers: JsonObject = {};
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  try {
    for (const [key, request] of Object.entries(inputRequests)) {
      if (
        !isPlainObject(request) ||
        typeof request['method'] !== 'string' ||
        !INPUT_METHODS.has(request['method'])
      )
        throw new LocalError(
          'invalid-response',
          `Input request "${key.slice(0, 100)}" is not an elicitation, sampling or roots request`,
        );
      const params = isPlainObject(request['params']) ? request['params'] : {};
      answers[key] = await answerServerRequest(
        host,
        { jsonrpc: '2.0', id: key, method: request['method'], params },
        { signal: controller.signal },
      );
    }
  } finally {
    signal?.removeEventListener('abort', abort);
  }
  return answers;
}

/**
 * @module Hand-written envelope guards: classify one decoded JSON value as a request,
 * notification or response, or say why it is invalid. No schema library runs on this path.
 */
import type {
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from './types.js';

/** The result of {@link classifyMessage}. */
export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  /** `id` is the request id when it could be read, so the error can be addressed to it. */
  | { kind: 'invalid'; id: RequestId | null; reason: string; isResponse: boolean };

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a valid MCP request id: a string or a safe integer. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function invalid(id: RequestId | null, reason: string, isResponse = false): Classified {
  return { kind: 'invalid', id, reason, isResponse };
}

/**
 * Classifies one decoded message. The object returned inside `message` is the same object that
 * was passed in, so what is checked is what is dispatched.
 */
export function classifyMessage(value: unknown): Classified {
  if (!isPlainObject(value)) return invalid(null, 'A message must be a JSON object');
  const rawId = value['id'];
  const hasId = rawId !== undefined;
  const idOk = hasId && isRequestId(rawId);
  const readableId = idOk ? rawId : null;
  if (value['jsonrpc'] !== '2.0') return invalid(readableId, 'The "jsonrpc" member must be "2.0"');

  const method = value['method'];
  if (method !== undefined) {
    if (typeof method !== 'string')
      return invalid(readableId, 'The "method" member must be a string');
    const params = value['params'];
    if (params !== undefined && !isPlainObject(params)) {
      return invalid(readableId, 'The "params" member must be an object');
    }
    if (!hasId) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!idOk) return invalid(null, 'The "id" member must be a string or an integer');
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }

  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) {
    return invalid(readableId, 'A response must carry exactly one of "result" and "error"', true);
  }
  if (hasResult) {
    if (!idOk) return invalid(null, 'A result response needs a string or integer "id"', true);
    if (!isPlainObject(value['result']))
      return invalid(readableId, '"result" must be an object', true);
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  const error = value['error'];
  if (
    !isPlainObject(error) ||
    typeof error['code'] !== 'number' ||
    !Number.isInteger(error['code']) ||
    typeof error['message'] !== 'string'
  ) {
    return invalid(readableId, '"error" must have an integer "code" and a string "message"', true);
  }
  if (hasId && rawId !== null && !idOk) return invalid(null, 'Bad "id" in an error response', true);
  return { kind: 'response', message: value as unknown as JsonRpcResponse };
}

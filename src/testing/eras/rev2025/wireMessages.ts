/**
 * @module Which definition of a revision's schema each JSON-RPC message must satisfy, and the
 * check itself: the envelope, then the request, notification, result or error inside it. These
 * are the 2025 era's messages (its methods, and batches only in 2025-03-26); the 2026 era's
 * check will sit beside this one in eras/.
 */
import type { ProtocolVersion } from '../../../index.js';
import type { SchemaProblem, WireSchema } from '../../wireSchema.js';

/** The definition of each method's result. */
const RESULT_OF: Readonly<Record<string, string>> = {
  initialize: 'InitializeResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'sampling/createMessage': 'CreateMessageResult',
  'elicitation/create': 'ElicitResult',
  'roots/list': 'ListRootsResult',
  'tasks/get': 'GetTaskResult',
  'tasks/list': 'ListTasksResult',
  'tasks/cancel': 'CancelTaskResult',
  // toolwire runs only tools/call as tasks, so a task's payload is a CallToolResult.
  'tasks/result': 'CallToolResult',
};

/** The definition of each request. */
const REQUEST_OF: Readonly<Record<string, string>> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'logging/setLevel': 'SetLevelRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'elicitation/create': 'ElicitRequest',
  'roots/list': 'ListRootsRequest',
  'tasks/get': 'GetTaskRequest',
  'tasks/result': 'GetTaskPayloadRequest',
  'tasks/list': 'ListTasksRequest',
  'tasks/cancel': 'CancelTaskRequest',
};

/** The definition of each notification. */
const NOTIFICATION_OF: Readonly<Record<string, string>> = {
  'notifications/initialized': 'InitializedNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/roots/list_changed': 'RootsListChangedNotification',
  'notifications/tasks/status': 'TaskStatusNotification',
};

type Message = Record<string, unknown>;

/** A problem that is no schema's: a method the revision lacks, a batch where there are none. */
function problem(message: string): SchemaProblem {
  return { definition: 'JSONRPCMessage', pointer: '', message, params: {} };
}

/** The problems of `value` checked as `definition`, pointed from the message (`under` it). */
function checked(
  schema: WireSchema,
  check: { definition: string; value: unknown; under?: string },
): SchemaProblem[] {
  const found = schema.check(check.definition, check.value);
  const under = check.under;
  return under === undefined
    ? found
    : found.map((p) => ({ ...p, pointer: `${under}${p.pointer}` }));
}

/** How {@link messageProblems} reads one message. */
export interface MessageCheck {
  /** The revision the message travels on, and its (strict) schema. */
  readonly revision: ProtocolVersion;
  readonly schema: WireSchema;
  /** The method of the request a response answers (by the response's id), when known. */
  readonly methodOf: (id: string | number) => string | undefined;
}

/**
 * The problems of one JSON-RPC message (an object, or a batch) as the revision defines it, each
 * with a JSON pointer into the message. Empty when it is valid.
 */
export function messageProblems(check: MessageCheck, message: unknown): SchemaProblem[] {
  const { revision, schema, methodOf } = check;
  if (Array.isArray(message)) {
    if (revision !== '2025-03-26')
      return [problem(`a batch was sent on ${revision}, which has none`)];
    return message.flatMap((m, i) =>
      messageProblems(check, m).map((p) => ({ ...p, pointer: `/${i}${p.pointer}` })),
    );
  }
  if (typeof message !== 'object' || message === null) return [problem('not a JSON-RPC message')];
  const m = message as Message;
  // The 2025-11-25 schema defines each request and notification with its envelope; the earlier
  // ones define only the method and params.
  const enveloped = schema.has('JSONRPCResultResponse');
  if ('error' in m) {
    // JSON-RPC 2.0 requires id:null when the request id could not be read; revisions before
    // 2025-11-25 cannot express it, so the rest of such an error is checked as if it had an id.
    const definition = enveloped ? 'JSONRPCErrorResponse' : 'JSONRPCError';
    const value = m['id'] === null ? { ...m, id: 0 } : m;
    return checked(schema, { definition, value });
  }
  if ('result' in m) {
    const envelope = checked(schema, {
      definition: enveloped ? 'JSONRPCResultResponse' : 'JSONRPCResponse',
      value: m,
    });
    const method = methodOf(m['id'] as string | number);
    const result = m['result'];
    // A task-augmented tools/call is answered with a CreateTaskResult (the unions of the schema omit it).
    const createsTask =
      method === 'tools/call' && typeof result === 'object' && result !== null && 'task' in result;
    const definition = createsTask ? 'CreateTaskResult' : method ? RESULT_OF[method] : undefined;
    if (definition === undefined)
      return [...envelope, problem(`a response to an unknown request ${String(m['id'])}`)];
    return [...envelope, ...checked(schema, { definition, value: result, under: '/result' })];
  }
  const method = String(m['method']);
  const isRequest = 'id' in m;
  const definition = (isRequest ? REQUEST_OF : NOTIFICATION_OF)[method];
  if (definition === undefined || !schema.has(definition))
    return [
      problem(`${isRequest ? 'request' : 'notification'} ${method} does not exist in ${revision}`),
    ];
  const envelope = checked(schema, {
    definition: isRequest ? 'JSONRPCRequest' : 'JSONRPCNotification',
    value: m,
  });
  let value: unknown = m;
  if (!enveloped) {
    const { jsonrpc: _jsonrpc, id: _id, ...rest } = m;
    value = rest;
  }
  return [...envelope, ...checked(schema, { definition, value })];
}

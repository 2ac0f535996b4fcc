/**
 * @module Which definition of a revision's schema each JSON-RPC message must satisfy, and the
 * check itself: the envelope, then the request, notification, result or error inside it. These
 * are the 2025 era's messages (its methods, and batches only in 2025-03-26), and the 2026 era's
 * (`server/discover`, `subscriptions/listen`, `input_required` results): each schema's tables
 * keep only the definitions it has.
 */
import type { Revision } from '../../../index.js';
import type { SchemaProblem, WireSchema } from '../../wireSchema.js';

/**
 * The requests toolwire sends or answers, each with the definition of its result. Method names
 * are read from each definition's `method` const in the revision's schema (WireSchema.methodOf):
 * the specification spells them, so this table does not.
 */
const REQUESTS: ReadonlyArray<readonly [request: string, result: string]> = [
  ['InitializeRequest', 'InitializeResult'],
  ['PingRequest', 'EmptyResult'],
  ['ListToolsRequest', 'ListToolsResult'],
  ['CallToolRequest', 'CallToolResult'],
  ['SetLevelRequest', 'EmptyResult'],
  ['CreateMessageRequest', 'CreateMessageResult'],
  ['ElicitRequest', 'ElicitResult'],
  ['ListRootsRequest', 'ListRootsResult'],
  ['GetTaskRequest', 'GetTaskResult'],
  // toolwire runs only tools/call as tasks, so a task's payload is a CallToolResult.
  ['GetTaskPayloadRequest', 'CallToolResult'],
  ['ListTasksRequest', 'ListTasksResult'],
  ['CancelTaskRequest', 'CancelTaskResult'],
  // 2026-07-28 (a schema that lacks a definition leaves it out of its tables).
  ['DiscoverRequest', 'DiscoverResult'],
  ['SubscriptionsListenRequest', 'SubscriptionsListenResult'],
];

/** The notifications toolwire sends or receives. */
const NOTIFICATIONS: readonly string[] = [
  'InitializedNotification',
  'LoggingMessageNotification',
  'ProgressNotification',
  'CancelledNotification',
  'ToolListChangedNotification',
  'RootsListChangedNotification',
  'TaskStatusNotification',
  'SubscriptionsAcknowledgedNotification',
];

/** A revision's tables, by method: the definitions of its requests, results and notifications. */
interface MethodTables {
  readonly request: ReadonlyMap<string, string>;
  readonly result: ReadonlyMap<string, string>;
  readonly notification: ReadonlyMap<string, string>;
  /** The method of `tools/call` (whose response may be a CreateTaskResult). */
  readonly callTool: string | undefined;
}

const tablesOf = new WeakMap<WireSchema, MethodTables>();

/** The tables of `schema`, built once: only the definitions the revision has. */
function tables(schema: WireSchema): MethodTables {
  let found = tablesOf.get(schema);
  if (found === undefined) {
    const request = new Map<string, string>();
    const result = new Map<string, string>();
    const notification = new Map<string, string>();
    for (const [definition, resultDefinition] of REQUESTS) {
      const method = schema.methodOf(definition);
      if (method === undefined) continue;
      request.set(method, definition);
      result.set(method, resultDefinition);
    }
    for (const definition of NOTIFICATIONS) {
      const method = schema.methodOf(definition);
      if (method !== undefined) notification.set(method, definition);
    }
    found = { request, result, notification, callTool: schema.methodOf('CallToolRequest') };
    tablesOf.set(schema, found);
  }
  return found;
}

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
  readonly revision: Revision;
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
    const { callTool, result: resultOf } = tables(schema);
    const createsTask =
      method === callTool && typeof result === 'object' && result !== null && 'task' in result;
    // 2026-07-28: a tools/call may be answered input_required (multi-round-trip input).
    const asksInput =
      method === callTool &&
      typeof result === 'object' &&
      result !== null &&
      (result as Message)['resultType'] === 'input_required';
    const definition = createsTask
      ? 'CreateTaskResult'
      : asksInput
        ? 'InputRequiredResult'
        : method
          ? resultOf.get(method)
          : undefined;
    if (definition === undefined)
      return [...envelope, problem(`a response to an unknown request ${String(m['id'])}`)];
    return [...envelope, ...checked(schema, { definition, value: result, under: '/result' })];
  }
  const method = String(m['method']);
  const isRequest = 'id' in m;
  const definition = tables(schema)[isRequest ? 'request' : 'notification'].get(method);
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

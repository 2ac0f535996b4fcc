/**
 * @module Which messages of a 2026-07-28 connection belong to the tasks extension
 * (`io.modelcontextprotocol/tasks`), whose definitions are not in the revision's schema but in the
 * extension's: its requests (`tasks/get`, `tasks/update`, `tasks/cancel`) and their results,
 * `notifications/tasks`, a `tools/call` answered with a task (`resultType: "task"`), and the
 * `taskIds` of a `subscriptions/listen` filter or of its acknowledgement. Those are checked
 * against the extension's schema (each result's envelope still against the revision's), a
 * listen's other filters against the revision's; every other message as rev2025/wireMessages.ts
 * checks it.
 */
import type { SchemaProblem, WireSchema } from '../../wireSchema.js';
import { messageProblems, type MessageCheck } from '../rev2025/wireMessages.js';

/**
 * The extension's requests, each with the definition of its result. Method names are read from
 * each definition's `method` const in the extension's schema, as rev2025/wireMessages.ts does.
 */
const REQUESTS: ReadonlyArray<readonly [request: string, result: string]> = [
  ['GetTaskRequest', 'GetTaskResult'],
  ['UpdateTaskRequest', 'UpdateTaskResult'],
  ['CancelTaskRequest', 'CancelTaskResult'],
];

/** The extension's notifications. */
const NOTIFICATIONS: readonly string[] = ['TaskStatusNotification'];

/** The `resultType` of a call answered with a task (a CreateTaskResult). */
const TASK_RESULT_TYPE = 'task';

/** The extension's methods: the definitions of its messages and of its results. */
interface ExtensionRoutes {
  /** Method -> the definition of the request or notification (its envelope included). */
  readonly message: ReadonlyMap<string, string>;
  /** Request method -> the definition of its result. */
  readonly result: ReadonlyMap<string, string>;
}

/** The revision's methods whose messages the extension adds to. */
interface RevisionRoutes {
  /** The method of `tools/call`, which may be answered with a task. */
  readonly callTool: string | undefined;
  /** A method whose filter may name `taskIds` -> the extension's definition of those. */
  readonly filters: ReadonlyMap<string, string>;
}

function extensionRoutes(extension: WireSchema): ExtensionRoutes {
  const message = new Map<string, string>();
  const result = new Map<string, string>();
  for (const [request, resultDefinition] of REQUESTS) {
    const method = extension.methodOf(request);
    if (method === undefined) continue;
    message.set(method, request);
    result.set(method, resultDefinition);
  }
  for (const notification of NOTIFICATIONS) {
    const method = extension.methodOf(notification);
    if (method !== undefined) message.set(method, notification);
  }
  return { message, result };
}

function revisionRoutes(schema: WireSchema): RevisionRoutes {
  const filters = new Map<string, string>();
  const listen = schema.methodOf('SubscriptionsListenRequest');
  const acknowledged = schema.methodOf('SubscriptionsAcknowledgedNotification');
  if (listen !== undefined) filters.set(listen, 'TaskSubscriptionNotifications');
  if (acknowledged !== undefined)
    filters.set(acknowledged, 'TaskSubscriptionAcknowledgedNotifications');
  return { callTool: schema.methodOf('CallToolRequest'), filters };
}

/** `build(schema)`, built once per schema: the wire path reads the tables of every message. */
function once<T>(build: (schema: WireSchema) => T): (schema: WireSchema) => T {
  const cache = new WeakMap<WireSchema, T>();
  return (schema) => {
    let found = cache.get(schema);
    if (found === undefined) cache.set(schema, (found = build(schema)));
    return found;
  };
}

const extensionRoutesOf = once(extensionRoutes);
const revisionRoutesOf = once(revisionRoutes);

type Message = Record<string, unknown>;

function isObject(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `found`, pointed from the message (`under` it). */
const under = (pointer: string, found: SchemaProblem[]): SchemaProblem[] =>
  found.map((p) => ({ ...p, pointer: `${pointer}${p.pointer}` }));

/** How {@link tasksExtensionProblems} reads one message of a 2026-07-28 connection. */
export interface ExtensionMessageCheck extends MessageCheck {
  /** The tasks extension's schema, as published (rev2026/tasksExtensionSchema.ts). */
  readonly extension: WireSchema;
}

/** The definition of the extension's that a response's result must satisfy, if it is one. */
function resultDefinition(check: ExtensionMessageCheck, m: Message): string | undefined {
  const id = m['id'];
  if (!('result' in m) || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const method = check.methodOf(id);
  if (method === undefined) return undefined;
  if (method === revisionRoutesOf(check.schema).callTool)
    return isObject(m['result']) && m['result']['resultType'] === TASK_RESULT_TYPE
      ? 'CreateTaskResult'
      : undefined;
  return extensionRoutesOf(check.extension).result.get(method);
}

/**
 * The problems of one message of a 2026-07-28 connection, the tasks extension's checked against
 * the extension's schema (see the module notes), each with a JSON pointer into the message.
 * Empty when it is valid.
 */
export function tasksExtensionProblems(
  check: ExtensionMessageCheck,
  message: unknown,
): SchemaProblem[] {
  if (!isObject(message)) return messageProblems(check, message);
  const { schema, extension } = check;
  const answered = resultDefinition(check, message);
  if (answered !== undefined)
    return [
      ...schema.check('JSONRPCResultResponse', message),
      ...under('/result', extension.check(answered, message['result'])),
    ];
  const method = message['method'];
  if (typeof method !== 'string') return messageProblems(check, message);
  // The extension's definitions of requests and notifications include their envelope.
  const definition = extensionRoutesOf(extension).message.get(method);
  if (definition !== undefined) return extension.check(definition, message);
  const params = message['params'];
  const filter = isObject(params) ? params['notifications'] : undefined;
  const named = revisionRoutesOf(schema).filters.get(method);
  if (named === undefined || !isObject(params) || !isObject(filter) || !('taskIds' in filter))
    return messageProblems(check, message);
  // The revision's filter is closed to its own fields: it checks the rest, the extension taskIds.
  const { taskIds, ...rest } = filter;
  return [
    ...under('/params/notifications', extension.check(named, { taskIds })),
    ...messageProblems(check, { ...message, params: { ...params, notifications: rest } }),
  ];
}

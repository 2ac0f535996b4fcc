/**
 * @module The client's side of the tasks extension (2026-07-28, `io.modelcontextprotocol/tasks`):
 * a `tools/call` the server answered with a task (`resultType: "task"`) is followed to its end,
 * so `callTool` still resolves with the tool's result, as the extension lets a client do. The
 * task is polled with `tasks/get` at the server's `pollIntervalMs`; its requests for input are
 * answered through the application's handlers with `tasks/update`, each key once; aborting the
 * call sends `tasks/cancel`; a `failed` task rejects with its JSON-RPC error, a `cancelled` one
 * with a cancellation; a task that outlives its `ttlMs` is given up.
 */
import type { Connection } from '../../jsonrpc/connection.js';
import { LocalError, RpcError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject, JsonRpcErrorObject } from '../../jsonrpc/types.js';
import { CancelTask, GetTask, UpdateTask } from '../../protocol/methods.js';
import type { ServerRequestHost } from '../input/serverRequests.js';
import { answerInputRequests } from '../input/inputRequests.js';

/** The shortest and longest wait between two polls, whatever the server says. */
const MIN_POLL_MS = 20;
const MAX_POLL_MS = 30_000;

/** What following a task needs of the session. */
export interface TaskFollowing {
  readonly connection: Connection;
  /** Params as sent: with the session's `_meta`. */
  withMeta(params: JsonObject): JsonObject;
  readonly input: ServerRequestHost;
  readonly signal: AbortSignal | undefined;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

function pollDelay(task: JsonObject): number {
  const asked = task['pollIntervalMs'];
  const ms = typeof asked === 'number' && Number.isFinite(asked) ? asked : 1000;
  return Math.min(Math.max(ms, MIN_POLL_MS), MAX_POLL_MS);
}

/** Follows the task `created` to its end; resolves with the tool's result. */
export async function followTask(created: JsonObject, session: TaskFollowing): Promise<JsonObject> {
  const taskId = created['taskId'];
  if (typeof taskId !== 'string' || taskId === '')
    throw new LocalError('invalid-response', 'The server answered a task without a taskId');
  const { connection, signal } = session;
  const ttl = created['ttlMs'];
  const givenUpAt =
    typeof ttl === 'number' && Number.isFinite(Date.parse(String(created['createdAt'])))
      ? Date.parse(String(created['createdAt'])) + ttl + 5_000
      : Number.POSITIVE_INFINITY;
  const answered = new Set<string>();
  let task = created;
  try {
    for (;;) {
      switch (task['status']) {
        case 'completed': {
          const result = task['result'];
          if (!isPlainObject(result))
            throw new LocalError('invalid-response', `Task ${taskId} completed without a result`);
          const { resultType: _envelope, ...plain } = result;
          return plain;
        }
        case 'failed': {
          const error = task['error'];
          if (isPlainObject(error) && typeof error['code'] === 'number')
            throw RpcError.fromWire(error as unknown as JsonRpcErrorObject);
          throw new LocalError('invalid-response', `Task ${taskId} failed without an error`);
        }
        case 'cancelled':
          throw new LocalError('aborted', `Task ${taskId} was cancelled`);
        case 'input_required':
          await answer(task, { taskId, answered }, session);
          break;
        case 'working':
          break;
        default:
          throw new LocalError(
            'invalid-response',
            `Task ${taskId} has a status this client does not know: ${String(task['status']).slice(0, 40)}`,
          );
      }
      if (Date.now() > givenUpAt)
        throw new LocalError('timeout', `Task ${taskId} outlived its ttlMs without ending`);
      await pause(pollDelay(task), signal);
      task = await connection.request(
        GetTask.method,
        session.withMeta({ taskId }),
        signal ? { signal } : {},
      );
    }
  } catch (error) {
    // The call was abandoned: the task is cancelled too (best effort; cooperative on the server).
    if (signal?.aborted)
      void connection.request(CancelTask.method, session.withMeta({ taskId })).catch(() => {});
    throw error;
  }
}

/** Answers the task's outstanding requests not answered yet (each key once), with tasks/update. */
async function answer(
  task: JsonObject,
  keys: { readonly taskId: string; readonly answered: Set<string> },
  session: TaskFollowing,
): Promise<void> {
  const { taskId, answered } = keys;
  const requests = task['inputRequests'];
  if (!isPlainObject(requests)) return;
  const fresh: JsonObject = {};
  for (const [key, request] of Object.entries(requests))
    if (!answered.has(key)) fresh[key] = request;
  if (Object.keys(fresh).length === 0) return;
  const inputResponses = await answerInputRequests(session.input, fresh, session.signal);
  if (inputResponses === undefined) return;
  for (const key of Object.keys(inputResponses)) answered.add(key);
  await session.connection.request(
    UpdateTask.method,
    session.withMeta({ taskId, inputResponses }),
    session.signal ? { signal: session.signal } : {},
  );
}

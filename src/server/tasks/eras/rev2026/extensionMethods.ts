/**
 * @module The methods of the tasks extension in the 2026 handler table: `tasks/get` (the
 * `DetailedTask`), `tasks/update` (answers to the task's requests for input) and `tasks/cancel`,
 * each answered with `resultType: "complete"`. A request that did not declare the extension gets
 * -32021 naming it; every lookup is bound to the caller (someone else's task, a 2025-11-25 task
 * and a missing one are alike: -32602); polls are paced as for 2025 tasks. `tasks/result` and
 * `tasks/list` are not in this era (-32601).
 */
import type { IncomingRequestContext } from '../../../../jsonrpc/connection.js';
import { ErrorCode, RpcError } from '../../../../jsonrpc/errors.js';
import { isPlainObject } from '../../../../jsonrpc/guards.js';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import {
  CancelTask,
  CreateMessage,
  Elicit,
  GetTask,
  ListRoots,
  UpdateTask,
} from '../../../../protocol/methods.js';
import { detailedTaskOf } from '../../../../tasks/eras/rev2026/taskWire.js';
import type { TaskRecord } from '../../../../tasks/taskRecord.js';
import { bind, type HandlerBinding } from '../../../dispatch/handlerTable.js';
import type { RequestScope } from '../../../dispatch/requestScope.js';
import { checkedInputAnswer } from '../../../input/inputRound.js';
import { lookupOf, notFound, paced } from '../../taskLookup.js';
import { extensionOwnerOf } from '../../taskOwner.js';
import type { TaskRuntime } from '../../taskRuntime.js';
import { declaresTasks, tasksExtensionMissing } from './extensionCall.js';

/** One extension task method call, bound to its requestor. */
interface ExtensionCall {
  readonly params: JsonObject | undefined;
  readonly owner: string;
  readonly incoming: IncomingRequestContext;
}

/** The caller's extension task, or -32602 as for an unknown one. */
async function ownTask(runtime: TaskRuntime, call: ExtensionCall, taskId: string) {
  const record = await runtime.store.get({ taskId, owner: call.owner });
  if (record?.generation !== 'extension') throw await notFound(runtime, call.owner, taskId);
  return record;
}

/** `tasks/get` */
async function getTask(runtime: TaskRuntime, call: ExtensionCall): Promise<JsonObject> {
  const taskId = lookupOf(runtime, call);
  const turn = paced(runtime, call, taskId);
  if (turn) await turn;
  return detailedTaskOf(await ownTask(runtime, call, taskId));
}

/** The kind of input a stored request asks for, by its method. */
const KIND_OF_METHOD: Readonly<Record<string, string>> = {
  [Elicit.method]: 'elicitation',
  [CreateMessage.method]: 'sampling',
  [ListRoots.method]: 'roots',
};

/**
 * `tasks/update`: the answers to outstanding requests are kept for the task's run (each checked
 * for its kind's shape, -32602 when it is not one); answers to keys not outstanding (never asked,
 * answered already, a task that ended) are ignored, unchecked, as the extension says.
 */
async function updateTask(runtime: TaskRuntime, call: ExtensionCall): Promise<JsonObject> {
  const taskId = lookupOf(runtime, call);
  const responses = call.params?.['inputResponses'];
  if (!isPlainObject(responses))
    throw new RpcError(ErrorCode.InvalidParams, 'tasks/update needs an inputResponses object');
  const record = await ownTask(runtime, call, taskId);
  const outstanding = record.inputRequests ?? {};
  const answers: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(responses)) {
    const asked = outstanding[key];
    if (asked === undefined) continue;
    answers[key] = checkedInputAnswer(key, KIND_OF_METHOD[String(asked['method'])] ?? '', value);
  }
  const store = runtime.store;
  if (Object.keys(answers).length > 0) {
    if (!store.provideInput)
      throw new RpcError(ErrorCode.InternalError, 'The task store does not take answers to input');
    const provided = await store.provideInput({ taskId, owner: call.owner, responses: answers });
    if (!provided.ok) throw await notFound(runtime, call.owner, taskId);
  }
  return {};
}

/**
 * `tasks/cancel`: acknowledged whether the task was still running or had ended (cancellation is
 * cooperative: an ended task stays as it ended); the run here, if any, is aborted at once, one on
 * another instance when its store subscription hears of it.
 */
async function cancelTask(runtime: TaskRuntime, call: ExtensionCall): Promise<JsonObject> {
  const taskId = lookupOf(runtime, call);
  const record: TaskRecord = await ownTask(runtime, call, taskId);
  const result = await runtime.store.transition({
    taskId: record.taskId,
    owner: call.owner,
    to: 'cancelled',
    statusMessage: 'The task was cancelled by request.',
  });
  if (!result.ok && result.reason === 'not-found')
    throw await notFound(runtime, call.owner, taskId);
  if (result.ok) runtime.abortLocal(taskId);
  return {};
}

const METHODS = [
  [GetTask, getTask],
  [UpdateTask, updateTask],
  [CancelTask, cancelTask],
] as const;

/** The extension's task handlers for the 2026 table (none when the server runs no tasks). */
export function extensionTaskBindings(runtime: TaskRuntime | undefined): HandlerBinding[] {
  if (runtime === undefined) return [];
  return METHODS.map(([descriptor, method]) =>
    bind(descriptor, {
      serve: (request, context, scope: RequestScope) => {
        if (!declaresTasks(scope.clientCapabilities))
          throw tasksExtensionMissing(`${request.method}`);
        const owner = extensionOwnerOf(scope.identityOf(context));
        // The result envelope (resultType "complete", the server's identity) on every answer.
        return method(runtime, { params: request.params, owner, incoming: context }).then(
          (result) => scope.profile.complete(result),
        );
      },
    }),
  );
}

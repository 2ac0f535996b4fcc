/**
 * @module A `tools/call` of a 2026 request as a task of the tasks extension. The server decides,
 * per request: a request that declared the extension (its `_meta` client capabilities name
 * `io.modelcontextprotocol/tasks`) gets a task for a tool whose `execution.taskSupport` is
 * `optional` or `required`; a request that did not gets a plain call, or -32021 naming the
 * extension for a tool that runs only as a task. The task is stored before the call is answered
 * (`resultType: "task"`), runs detached, asks for input through the task (taskInputChannel.ts),
 * and its outcome settles it the extension's way (an `isError` result completes it).
 */
import { missingCapability } from '../../../../protocol/eras/rev2026/errors.js';
import type { RevisionProfile } from '../../../../protocol/eras/era.js';
import { CallTool } from '../../../../protocol/methods.js';
import type { ClientCapabilities } from '../../../../protocol/types.js';
import { settlementOf } from '../../../../tasks/eras/rev2026/taskOutcome.js';
import { createTaskResult, TASKS_EXTENSION } from '../../../../tasks/eras/rev2026/taskWire.js';
import type { TaskGeneration } from '../../taskGeneration.js';
import { extensionOwnerOf } from '../../taskOwner.js';
import { TaskInputChannel } from './taskInputChannel.js';

/** Whether a request's client capabilities declare the tasks extension. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const declared = capabilities.extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}

/** -32021 naming the tasks extension: the request needs it and did not declare it. */
export function tasksExtensionMissing(what: string): Error {
  return missingCapability(
    { extensions: { [TASKS_EXTENSION]: {} } },
    `${what} needs the tasks extension (${TASKS_EXTENSION}), which the request did not declare`,
  );
}

/** Status changes reach clients through subscriptions/listen, not the request: no session. */
const NO_SESSION = { id: '', taskChanged: (): void => {} };

/** A 2026 request that did not declare the extension: plain calls, or -32021. */
export const UNDECLARED_TASKS: TaskGeneration = {
  taskOf(entry) {
    if (entry.definition.execution?.taskSupport === 'required')
      throw tasksExtensionMissing(`Tool "${entry.name}" runs only as a task: it`);
    return undefined;
  },
  start: () => Promise.reject(new Error('A request without the tasks extension starts no task')),
};

/** The task calls of one 2026 request that declared the extension. */
export function declaredTasks(client: {
  readonly capabilities: ClientCapabilities;
  readonly profile: RevisionProfile;
}): TaskGeneration {
  return {
    taskOf(entry) {
      const support = entry.definition.execution?.taskSupport ?? 'forbidden';
      if (support === 'forbidden') return undefined;
      return entry.inputBeforeTask ? { ttl: undefined, afterInput: true } : { ttl: undefined };
    },
    async start(runtime, call) {
      const record = await runtime.start({
        owner: extensionOwnerOf(call.identity),
        method: CallTool.method,
        session: NO_SESSION,
        ttl: call.ttl,
        generation: 'extension',
        run: (binding, cancellation) =>
          call.run(
            binding,
            cancellation,
            new TaskInputChannel(
              { store: runtime.store, taskId: binding.taskId },
              client,
              runtime.report,
            ),
          ),
        settle: settlementOf,
      });
      // The envelope of every 2026 result (the server's identity), with its own resultType.
      const answer = client.profile.complete(createTaskResult(record));
      answer['resultType'] = 'task';
      return answer;
    },
  };
}

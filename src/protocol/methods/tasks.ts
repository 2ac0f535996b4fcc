/**
 * @module Descriptors of the task methods: the 2025-11-25 tasks utility (`tasks/get`,
 * `tasks/result`, `tasks/list`, `tasks/cancel`, `notifications/tasks/status`) and the 2026 tasks
 * extension (`tasks/get`, `tasks/update`, `tasks/cancel`, `notifications/tasks`).
 */
import {
  TASK_STATE,
  TASK_STATUS,
  TASKS_CANCEL,
  TASKS_GET,
  TASKS_RESULT,
  TASKS_UPDATE,
} from '../../jsonrpc/methods.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { parsePaginatedParams, parseTaskIdParams } from '../params.js';
import {
  BOTH_ERAS,
  ERA_2025,
  ERA_2026,
  notification,
  request,
  type RequestMethod,
  type NotificationMethod,
} from './descriptor.js';
import type { PaginatedParams, TaskIdParams } from './paramTypes.js';

const TASKS = { of: 'server', key: 'tasks' } as const;

/** `tasks/get`: one task's state. */
export const GetTask: RequestMethod<TaskIdParams, JsonObject> = request(TASKS_GET, {
  direction: 'client-to-server',
  since: '2025-11-25',
  eras: BOTH_ERAS,
  capability: TASKS,
  params: parseTaskIdParams,
});

/** `tasks/result`: waits for a task's result (2025 only: the 2026 extension removed it). */
export const GetTaskResult: RequestMethod<TaskIdParams, JsonObject> = request(TASKS_RESULT, {
  direction: 'client-to-server',
  since: '2025-11-25',
  eras: ERA_2025,
  capability: TASKS,
  params: parseTaskIdParams,
});

/** `tasks/list` (paginated; 2025 only). */
export const ListTasks: RequestMethod<PaginatedParams, JsonObject> = request('tasks/list', {
  direction: 'client-to-server',
  since: '2025-11-25',
  eras: ERA_2025,
  capability: TASKS,
  params: parsePaginatedParams,
});

/** `tasks/cancel` */
export const CancelTask: RequestMethod<TaskIdParams, JsonObject> = request(TASKS_CANCEL, {
  direction: 'client-to-server',
  since: '2025-11-25',
  eras: BOTH_ERAS,
  capability: TASKS,
  params: parseTaskIdParams,
});

/** `tasks/update`: answers a task's input requests (2026 tasks extension). */
export const UpdateTask: RequestMethod<TaskIdParams & { inputResponses?: JsonObject }, JsonObject> =
  request(TASKS_UPDATE, {
    direction: 'client-to-server',
    since: '2026-07-28',
    eras: ERA_2026,
    capability: TASKS,
  });

/** `notifications/tasks/status` (2025-11-25; optional, the requestor polls anyway). */
export const TaskStatus: NotificationMethod<JsonObject> = notification(TASK_STATUS, {
  direction: 'server-to-client',
  since: '2025-11-25',
  eras: ERA_2025,
  capability: TASKS,
});

/** `notifications/tasks`: a task's full state on a `subscriptions/listen` stream (2026). */
export const TasksNotification: NotificationMethod<JsonObject> = notification(TASK_STATE, {
  direction: 'server-to-client',
  since: '2026-07-28',
  eras: ERA_2026,
  capability: TASKS,
});

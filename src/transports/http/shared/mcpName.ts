/**
 * @module Which param a 2026-07-28 request's `Mcp-Name` header mirrors (SEP-2243, and the tasks
 * extension's routing headers): the tool, prompt or resource a request acts on, and the task of
 * a `tasks/get`, `tasks/update` or `tasks/cancel`, so that a proxy or load balancer routes on the
 * headers alone. The client sets the header from it; the server checks it against the body.
 */
import { TASKS_CANCEL, TASKS_GET, TASKS_UPDATE, TOOLS_CALL } from '../../../jsonrpc/methods.js';

/** The request methods whose `Mcp-Name` header mirrors a param, and which param. */
export const NAMED_BY: Readonly<Record<string, string>> = {
  [TOOLS_CALL]: 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  [TASKS_GET]: 'taskId',
  [TASKS_UPDATE]: 'taskId',
  [TASKS_CANCEL]: 'taskId',
};

/**
 * @module Params types of requests that `protocol/types.ts` does not name. They sit apart from the
 * descriptors so the guards of `params.ts` can use them without an import cycle.
 */

/** Params of `tools/call`. */
export interface CallToolParams {
  name: string;
  arguments?: Record<string, unknown>;
  /** 2025-11-25: run as a task. */
  task?: { ttl?: number };
  _meta?: Record<string, unknown>;
}

/** Params of paginated list requests. */
export interface PaginatedParams {
  cursor?: string;
  _meta?: Record<string, unknown>;
}

/** Params of the task methods that name one task (`tasks/get`, `tasks/result`, `tasks/cancel`). */
export interface TaskIdParams {
  taskId: string;
  _meta?: Record<string, unknown>;
}

/**
 * @module Every descriptor in one list, and each era's method table built from it. A method an era
 * lacks is absent from its table, so a request for it is -32601 "by absence": no code asks which
 * era it is in to refuse it (SDK v2 `wire/rev*` registries do the same).
 */
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { ERA_NAMES, type EraName } from '../eras/eraName.js';
import type { Direction, MethodDescriptor } from './descriptor.js';
import {
  CreateMessage,
  Elicit,
  ElicitationComplete,
  ListRoots,
  RootsListChanged,
} from './clientInput.js';
import { Discover, Initialize, Initialized, Ping, SetLevel } from './lifecycle.js';
import {
  Cancelled,
  Listen,
  LoggingMessage,
  ProgressNotification,
  PromptListChanged,
  ResourceListChanged,
  SubscriptionsAcknowledged,
} from './notifications.js';
import {
  CancelTask,
  GetTask,
  GetTaskResult,
  ListTasks,
  TasksNotification,
  TaskStatus,
  UpdateTask,
} from './tasks.js';
import { CallTool, ListTools, ToolListChanged } from './tools.js';

/** Every method toolwire handles or will handle, in both eras. */
export const ALL_METHODS: readonly MethodDescriptor[] = Object.freeze([
  Initialize,
  Initialized,
  Ping,
  SetLevel,
  Discover,
  ListTools,
  CallTool,
  ToolListChanged,
  GetTask,
  GetTaskResult,
  ListTasks,
  CancelTask,
  UpdateTask,
  TaskStatus,
  TasksNotification,
  CreateMessage,
  Elicit,
  ListRoots,
  RootsListChanged,
  ElicitationComplete,
  Cancelled,
  ProgressNotification,
  LoggingMessage,
  PromptListChanged,
  ResourceListChanged,
  Listen,
  SubscriptionsAcknowledged,
]);

/** One era's methods, looked up by name. */
export interface MethodRegistry {
  readonly era: EraName;
  /** The descriptor of `method` in this era, or undefined when the era lacks it. */
  get(method: string): MethodDescriptor | undefined;
  /** True when this era has `method`. */
  has(method: string): boolean;
  /** The era's descriptors, optionally only those a side receives. */
  list(filter?: { receivedBy?: 'server' | 'client' }): readonly MethodDescriptor[];
}

function receivedBy(direction: Direction, side: 'server' | 'client'): boolean {
  if (direction === 'both') return true;
  return side === 'server' ? direction === 'client-to-server' : direction === 'server-to-client';
}

function buildRegistry(era: EraName): MethodRegistry {
  const table = new Map<string, MethodDescriptor>();
  for (const descriptor of ALL_METHODS)
    if (descriptor.eras.includes(era)) table.set(descriptor.method, descriptor);
  const all = Object.freeze([...table.values()]);
  return Object.freeze({
    era,
    get: (method: string) => table.get(method),
    has: (method: string) => table.has(method),
    list: (filter?: { receivedBy?: 'server' | 'client' }) => {
      const side = filter?.receivedBy;
      return side === undefined ? all : all.filter((d) => receivedBy(d.direction, side));
    },
  });
}

const REGISTRIES = new Map<EraName, MethodRegistry>(
  ERA_NAMES.map((era) => [era, buildRegistry(era)]),
);

/** The method table of one era (built once; shared). */
export function registryFor(era: EraName): MethodRegistry {
  return REGISTRIES.get(era) as MethodRegistry;
}

/** The -32601 a request for a method the era (or this server) lacks is answered with. */
export function methodNotFound(method: string): RpcError {
  return new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 200)}`);
}

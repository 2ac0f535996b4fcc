/**
 * @module One tool call as the client runs it: the tool's definition when something needs it,
 * the output validator compiled before anything runs, the host's approval, the call sent as a task
 * or as one request (its era decides how), the result read as the revision allows, validated and
 * audited.
 */
import type { Connection } from '../../jsonrpc/connection.js';
import { LocalError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { CompiledJsonSchema } from '../../protocol/jsonSchema.js';
import { parseCallToolResult } from '../../protocol/params.js';
import type { CallToolResult, Tool } from '../../protocol/types.js';
import type { ApprovalGate } from '../approval/gate.js';
import type {
  CallToolOptions,
  ClientOptions,
  StartedTask,
  StartTaskOptions,
} from '../clientOptions.js';
import type { EraSession } from '../eras/eraSession.js';
import type { SessionHooks, ToolCallScope } from '../instrumentation.js';
import { callToolAsTask, startToolTask } from '../tasks/taskCalls.js';
import { extensionTaskState, type TaskState } from '../tasks/taskState.js';
import { OutputValidator } from './outputValidator.js';

/** What a call needs of the client. */
export interface CallHost {
  readonly options: ClientOptions;
  readonly gate: ApprovalGate;
  /** The tool's definition, listing when needed. */
  readonly definitionOf: (name: string) => Promise<Tool | undefined>;
  /** What the instrumentation puts around the session, when there is one. */
  readonly hooks: () => SessionHooks | undefined;
  /** Subscribes to one task's status notifications; returns the stop. */
  readonly watch: (taskId: string, listener: (task: TaskState) => void) => () => void;
}

/** A call once decided what it needs. */
interface PreparedCall {
  name: string;
  args: Record<string, unknown>;
  tool: Tool | undefined;
  validator: CompiledJsonSchema | undefined;
  asTask: boolean;
  scope: ToolCallScope | undefined;
}

/** Whether a call runs as a task: required by the tool, or asked for and allowed. */
function shouldRunAsTask(
  tool: Tool | undefined,
  name: string,
  requested: CallToolOptions['task'],
): boolean {
  const support = tool?.execution?.taskSupport ?? 'forbidden';
  if (support === 'required') return true;
  if (requested === undefined || requested === false) return false;
  if (support === 'forbidden')
    throw new LocalError('invalid-tool', `Tool "${name}" cannot run as a task`);
  return true;
}

const resultIsError = (result: CallToolResult): boolean => result.isError === true;
const startedIsError = (started: StartedTask): boolean => started.result?.isError === true;

/** A connection and the session it carries. */
type Link = { connection: Connection; session: EraSession };

/** Runs `run` inside the approval's instrumentation scope, ending it with the outcome. */
async function scoped<T>(scope: ToolCallScope | undefined, run: () => Promise<T>): Promise<T> {
  if (!scope) return run();
  try {
    const outcome = await run();
    scope.end();
    return outcome;
  } catch (error) {
    scope.end(error);
    throw error;
  }
}

/** Runs the client's tool calls. */
export class ToolCaller {
  private readonly validator = new OutputValidator();

  constructor(private readonly host: CallHost) {}

  /** Calls a tool on the link's session, over its connection. */
  async call(
    link: Link,
    request: { name: string; args: Record<string, unknown> },
    options: CallToolOptions,
  ): Promise<CallToolResult> {
    const call = await this.prepare(link, request, options);
    return scoped(call.scope, () => this.decided(link, call, options));
  }

  /**
   * Starts a call as a task and returns the task as created, or the result when the server ran
   * the call at once (a 2026-07-28 server decides; a 2025 server without tasks for tools).
   */
  async start(
    link: Link,
    request: { name: string; args: Record<string, unknown> },
    options: StartTaskOptions,
  ): Promise<StartedTask> {
    const { ttl, ...rest } = options;
    const callOptions: CallToolOptions = { ...rest, task: ttl === undefined ? true : { ttl } };
    const call = await this.prepare(link, request, callOptions);
    return scoped(call.scope, () => this.started(link, call, callOptions));
  }

  /** What a call needs before it is sent: the definition, the output validator, the scope. */
  private async prepare(
    link: Link,
    request: { name: string; args: Record<string, unknown> },
    options: CallToolOptions,
  ): Promise<PreparedCall> {
    const { session } = link;
    const { name, args } = request;
    const client = this.host.options;
    const validate = options.validateOutput ?? client.validateStructuredContent ?? true;
    const tasksOffered = session.taskCallsOffered(options.task);
    const needsDefinition =
      validate || client.approval || client.audit || tasksOffered || session.callsNeedDefinition;
    const tool = needsDefinition ? await this.host.definitionOf(name) : undefined;
    const asTask = tasksOffered && shouldRunAsTask(tool, name, options.task);
    // Before anything runs: a result that could not be validated must not cost a side effect.
    const validator =
      validate && tool ? this.validator.prepare(tool, session.schemaDialect) : undefined;
    if (client.approval && !tool) {
      throw new LocalError(
        'invalid-tool',
        `Tool "${name}" is not offered by the server, so it cannot be approved`,
      );
    }
    const scope = tool && client.approval ? this.host.hooks()?.toolCall(name, args) : undefined;
    return { name, args, tool, validator, asTask, scope };
  }

  /** Reads a result as the revision allows and checks it against the tool's output schema. */
  private checked(link: Link, call: PreparedCall, raw: JsonObject): CallToolResult {
    const result = parseCallToolResult(raw, link.session.features);
    if (call.validator && call.tool) this.validator.check(call.tool, call.validator, result);
    return result;
  }

  /**
   * Asks for approval, runs `send`, and tells the gate how it ended (the audit): what every call
   * goes through, run or started.
   */
  private async gated<T>(
    call: PreparedCall,
    options: CallToolOptions,
    run: { send: () => Promise<T>; isError: (outcome: T) => boolean },
  ): Promise<T> {
    const { name, args, tool, scope } = call;
    const gate = this.host.gate;
    if (tool) await gate.authorize(tool, args, scope ? { ...options, observer: scope } : options);
    const startedAt = Date.now();
    try {
      const outcome = await run.send();
      gate.finished(name, { isError: run.isError(outcome) }, startedAt);
      return outcome;
    } catch (error) {
      gate.finished(name, { error }, startedAt);
      throw error;
    }
  }

  /** The `tools/call` params of a call, and how its era sends it (with its scope). */
  private sent(call: PreparedCall, options: CallToolOptions) {
    const params: JsonObject = { name: call.name, arguments: call.args };
    if (options.meta) params['_meta'] = options.meta;
    return { params, how: call.scope ? { ...options, scope: call.scope } : options };
  }

  /** Sends the call to start a task, and reads what the server made of it. */
  private started(link: Link, call: PreparedCall, options: CallToolOptions): Promise<StartedTask> {
    const send = async (): Promise<StartedTask> => {
      if (call.asTask) {
        const ttl = typeof options.task === 'object' ? options.task.ttl : undefined;
        const task = await startToolTask(link.connection, call, {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(call.scope ? { scope: call.scope } : {}),
          ...(ttl !== undefined ? { ttl } : {}),
          ...(options.meta ? { meta: options.meta } : {}),
          timeoutMs: options.timeoutMs ?? this.host.options.requestTimeoutMs ?? 60_000,
        });
        return { task };
      }
      const { params, how } = this.sent(call, options);
      const raw = await link.session.sendCall(link.connection, params, { ...how, start: true });
      return raw['resultType'] === 'task'
        ? { task: extensionTaskState(raw) }
        : { result: this.checked(link, call, raw) };
    };
    return this.gated(call, options, { send, isError: startedIsError });
  }

  /** Sends the call, as a task or not, and checks its result. */
  private decided(
    link: Link,
    call: PreparedCall,
    options: CallToolOptions,
  ): Promise<CallToolResult> {
    const send = async (): Promise<CallToolResult> => {
      const { params, how } = this.sent(call, options);
      const raw = call.asTask
        ? await this.asTask(link.connection, call, options)
        : await link.session.sendCall(link.connection, params, how);
      return this.checked(link, call, raw);
    };
    return this.gated(call, options, { send, isError: resultIsError });
  }

  /** The call run as a task, with the client's limits where the call sets none. */
  private asTask(
    connection: Connection,
    call: PreparedCall,
    options: CallToolOptions,
  ): Promise<JsonObject> {
    const client = this.host.options;
    return callToolAsTask(
      connection,
      { name: call.name, args: call.args },
      {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(call.scope ? { scope: call.scope } : {}),
        ...(typeof options.task === 'object' && options.task.ttl !== undefined
          ? { ttl: options.task.ttl }
          : {}),
        timeoutMs: options.timeoutMs ?? client.requestTimeoutMs ?? 60_000,
        maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? client.maxTotalTimeoutMs ?? 600_000,
        ...(options.onprogress ? { onprogress: options.onprogress } : {}),
        ...(options.ontaskstatus ? { ontaskstatus: options.ontaskstatus } : {}),
        ...(options.onimmediateresponse
          ? { onimmediateresponse: options.onimmediateresponse }
          : {}),
        ...(options.meta ? { meta: options.meta } : {}),
        watch: this.host.watch,
      },
    );
  }
}

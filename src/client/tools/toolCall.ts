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
import type { Task } from '../../tasks/eras/rev2025/taskWire.js';
import type { ApprovalGate } from '../approval/gate.js';
import type { CallToolOptions, ClientOptions } from '../clientOptions.js';
import type { EraSession } from '../eras/eraSession.js';
import type { SessionHooks, ToolCallScope } from '../instrumentation.js';
import { callToolAsTask } from '../tasks/taskCalls.js';
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
  readonly watch: (taskId: string, listener: (task: Task) => void) => () => void;
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

/** Runs the client's tool calls. */
export class ToolCaller {
  private readonly validator = new OutputValidator();

  constructor(private readonly host: CallHost) {}

  /** Calls a tool on the link's session, over its connection. */
  async call(
    link: { connection: Connection; session: EraSession },
    request: { name: string; args: Record<string, unknown> },
    options: CallToolOptions,
  ): Promise<CallToolResult> {
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
    const call = { name, args, tool, validator, asTask, scope };
    if (!scope) return this.decided(link, call, options);
    return this.decided(link, call, options).then(
      (result) => {
        scope.end();
        return result;
      },
      (error: unknown) => {
        scope.end(error);
        throw error;
      },
    );
  }

  /** Asks for approval, then sends the call, as a task or not, and checks its result. */
  private async decided(
    link: { connection: Connection; session: EraSession },
    call: PreparedCall,
    options: CallToolOptions,
  ): Promise<CallToolResult> {
    const { name, args, tool, validator, scope } = call;
    const gate = this.host.gate;
    if (tool) await gate.authorize(tool, args, scope ? { ...options, observer: scope } : options);
    const startedAt = Date.now();
    try {
      const params: JsonObject = { name, arguments: args };
      if (options.meta) params['_meta'] = options.meta;
      const raw = call.asTask
        ? await this.asTask(link.connection, call, options)
        : await link.session.sendCall(
            link.connection,
            params,
            scope ? { ...options, scope } : options,
          );
      const result = parseCallToolResult(raw, link.session.features);
      if (validator && tool) this.validator.check(tool, validator, result);
      gate.finished(name, { isError: result.isError === true }, startedAt);
      return result;
    } catch (error) {
      gate.finished(name, { error }, startedAt);
      throw error;
    }
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

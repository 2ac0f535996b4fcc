/**
 * @module The 2025 input channel: each request for input is a JSON-RPC request pushed to the
 * client (`sampling/createMessage`, `elicitation/create`, `roots/list`) on the session's
 * connection, related to the call's request (or, for a task, to the stream its messages follow),
 * and the call waits for the response.
 */
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { RequestOptions } from '../../jsonrpc/connection.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import { CreateMessage, Elicit, ListRoots } from '../../protocol/methods.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import { RELATED_TASK } from '../../tasks/eras/rev2025/taskWire.js';
import type { InputAnswer, InputCall, InputChannel, InputRequest } from './inputChannel.js';
import { pushRefusal } from './pushRefusal.js';

/** Sends a request to the client and resolves with its result (a 2025 session does). */
export interface ClientRequester {
  requestClient(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
}

/** What a push channel is built from: one per negotiated session. */
export interface PushInputChannelOptions {
  readonly requester: ClientRequester;
  /** What the client declared at `initialize`. */
  readonly capabilities: ClientCapabilities;
  /** The negotiated revision's profile. */
  readonly profile: RevisionProfile;
}

/** Asks the client by sending it a request and waiting for the response. */
export class PushInputChannel implements InputChannel {
  private readonly requester: ClientRequester;
  private readonly capabilities: ClientCapabilities;
  private readonly profile: RevisionProfile;

  constructor(options: PushInputChannelOptions) {
    this.requester = options.requester;
    this.capabilities = options.capabilities;
    this.profile = options.profile;
  }

  refusal(request: InputRequest): ReturnType<InputChannel['refusal']> {
    return pushRefusal(request, this.capabilities, this.profile);
  }

  async ask<R extends InputRequest>(request: R, call: InputCall): Promise<InputAnswer<R>> {
    const refused = this.refusal(request);
    if (refused) throw refused;
    const [method, params] = this.wire(request);
    return (await this.send(method, params, call)) as unknown as InputAnswer<R>;
  }

  /** The request's method and params as the negotiated revision has them. */
  private wire(request: InputRequest): [string, JsonObject] {
    switch (request.kind) {
      case 'sampling':
        return [CreateMessage.method, request.params as unknown as JsonObject];
      case 'roots':
        return [ListRoots.method, {}];
      case 'elicitation': {
        if (request.params.mode === 'url')
          return [Elicit.method, request.params as unknown as JsonObject];
        const sent: JsonObject = { ...request.params };
        // `mode` does not exist before 2025-11-25.
        if (!this.profile.features.elicitationModes) delete sent['mode'];
        return [Elicit.method, sent];
      }
    }
  }

  private async send(method: string, params: JsonObject, call: InputCall): Promise<JsonObject> {
    const { task } = call;
    const options: RequestOptions = { signal: call.signal };
    if (call.timeoutMs !== undefined) options.timeoutMs = call.timeoutMs;
    if (!task) {
      options.relatedRequestId = call.requestId;
      return this.requester.requestClient(method, params, options);
    }
    // A task's request to the client carries the related-task _meta and puts it in input_required.
    const route = task.route();
    if (route !== undefined) options.relatedRequestId = route;
    const meta = isPlainObject(params['_meta']) ? params['_meta'] : {};
    task.inputRequired(true);
    try {
      return await this.requester.requestClient(
        method,
        { ...params, _meta: { ...meta, [RELATED_TASK]: { taskId: task.taskId } } },
        options,
      );
    } finally {
      task.inputRequired(false);
    }
  }
}

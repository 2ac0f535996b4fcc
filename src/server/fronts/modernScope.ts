/**
 * @module The scope of one 2026 request: everything the request says about itself (its `_meta`:
 * revision, client capabilities, client info, log level), the caller, and the way back to the
 * client. One object per request is both the request scope and the session port the call
 * pipeline talks to, so a request costs one allocation here; its `SessionInfo` (with a random id,
 * since there is no session) is built only if a handler or middleware reads it.
 */
import type { IncomingRequestContext, RequestOptions } from '../../jsonrpc/connection.js';
import { LocalError } from '../../jsonrpc/errors.js';
import type { Identity, TransportNetwork } from '../../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../../jsonrpc/types.js';
import type { Era, RevisionProfile } from '../../protocol/eras/era.js';
import { era2026 } from '../../protocol/eras/rev2026/era.js';
import type { ModernRequestMeta } from '../../protocol/eras/rev2026/requestMetaCheck.js';
import { LoggingMessage, ProgressNotification } from '../../protocol/methods.js';
import {
  LOGGING_LEVELS,
  type ClientCapabilities,
  type LoggingMessageParams,
  type ProgressParams,
} from '../../protocol/types.js';
import type { CallRound, RequestScope } from '../dispatch/requestScope.js';
import type { InputChannel } from '../input/inputChannel.js';
import { InputRound, type RoundTripOptions } from '../input/inputRound.js';
import type { SessionInfo, SessionPort } from '../toolContext.js';
import {
  declaredTasks,
  declaresTasks,
  UNDECLARED_TASKS,
} from '../tasks/eras/rev2026/extensionCall.js';
import type { TaskGeneration } from '../tasks/taskGeneration.js';
import type { ModernChannel } from './modernChannel.js';

const UNKNOWN_CLIENT = Object.freeze({ name: 'unknown', version: 'unknown' });

/** What every request of one server shares: its bound profile and its round-trip settings. */
export interface ModernServerSide {
  readonly profile: RevisionProfile;
  /** How calls ask for input: by round trip, answered in a retried request. */
  readonly rounds: RoundTripOptions;
  /** True when the server runs tasks (then it offers the tasks extension). */
  readonly runsTasks: boolean;
}

/** The scope (and session port) of one 2026 request. */
export class ModernScope implements RequestScope, SessionPort {
  readonly era: Era = era2026;
  readonly profile: RevisionProfile;
  readonly clientCapabilities: ClientCapabilities;
  /** A 2026 request stands alone: nothing of it outlives it, and its callers are told apart only by identity. */
  readonly transient = true;
  private infoValue: SessionInfo | undefined;
  /** The round of the request's `tools/call`, once opened. */
  private round: InputRound | undefined;
  /** The request's task calls, once asked for (a request that declared the tasks extension). */
  private tasksValue: TaskGeneration | undefined;
  /** The index in LOGGING_LEVELS below which messages are not sent; past the end: none are. */
  private readonly logThreshold: number;

  constructor(
    private readonly server: ModernServerSide,
    private readonly channel: ModernChannel,
    readonly meta: ModernRequestMeta,
  ) {
    this.profile = server.profile;
    this.clientCapabilities = meta.clientCapabilities;
    this.logThreshold =
      meta.logLevel === undefined ? LOGGING_LEVELS.length : LOGGING_LEVELS.indexOf(meta.logLevel);
  }

  /** The request as handlers see it (`ctx.session`): its `_meta`, under an id of its own. */
  get session(): SessionInfo {
    return (this.infoValue ??= {
      id: crypto.randomUUID(),
      protocolVersion: this.meta.protocolVersion,
      clientInfo: this.meta.clientInfo ?? UNKNOWN_CLIENT,
      clientCapabilities: this.meta.clientCapabilities,
    });
  }

  get info(): SessionInfo {
    return this.session;
  }

  get port(): SessionPort {
    return this;
  }

  get identity(): Identity | undefined {
    return this.channel.identity;
  }

  get networkTransport(): 'pipe' | 'tcp' | 'inproc' | undefined {
    return this.channel.networkTransport;
  }

  get network(): TransportNetwork | undefined {
    return this.channel.network;
  }

  /** The call's round-trip channel (a request that is no `tools/call` asks in a round of its own). */
  get input(): InputChannel {
    const round = (this.round ??= new InputRound(this.server.rounds, undefined, ''));
    return round.channel(this.clientCapabilities, this.profile);
  }

  /** The tasks extension, as this request declared it (or not); none when the server runs no tasks. */
  get taskGeneration(): TaskGeneration | undefined {
    if (!this.server.runsTasks) return undefined;
    if (!declaresTasks(this.clientCapabilities)) return UNDECLARED_TASKS;
    return (this.tasksValue ??= declaredTasks({
      capabilities: this.clientCapabilities,
      profile: this.profile,
    }));
  }

  openCall(params: JsonObject | undefined, context: IncomingRequestContext): CallRound {
    this.round = new InputRound(this.server.rounds, params, this.identityOf(context)?.id ?? '');
    return this.round;
  }

  identityOf(context: IncomingRequestContext): Identity | undefined {
    return context.info?.identity ?? this.channel.identity;
  }

  clientAddressOf(context: IncomingRequestContext): string | undefined {
    return context.info?.clientAddress ?? this.channel.clientAddress;
  }

  /** The 2025 tasks utility does not exist in this era. */
  tasksOffered(): boolean {
    return false;
  }

  /** Sent only when the request's `_meta` set a log level, and only at or above it. */
  log(message: LoggingMessageParams, relatedRequestId?: RequestId): void {
    if (relatedRequestId === undefined) return; // no stream outside a request in this era
    if (LOGGING_LEVELS.indexOf(message.level) < this.logThreshold) return;
    this.channel.notify(LoggingMessage.method, message as unknown as JsonObject, relatedRequestId);
  }

  sendProgress(params: ProgressParams, relatedRequestId: RequestId | undefined): void {
    if (relatedRequestId === undefined) return;
    this.channel.notify(
      ProgressNotification.method,
      params as unknown as JsonObject,
      relatedRequestId,
    );
  }

  /** Sends a notification related to request `relatedRequestId` (a listen's stream, say). */
  sendNotification(method: string, params: JsonObject, relatedRequestId: RequestId): void {
    this.channel.notify(method, params, relatedRequestId);
  }

  /** A server of this era sends no requests: input travels in the round trip (`input`). */
  requestClient(
    method: string,
    _params: JsonObject,
    _options: RequestOptions,
  ): Promise<JsonObject> {
    return Promise.reject(
      new LocalError(
        'capability-missing',
        `A 2026-07-28 server sends no requests to the client (${method.slice(0, 100)})`,
      ),
    );
  }

  /** There is no polling stream in this era: the response stream is the request's own. */
  closeStream(): void {}

  /** The 2025 tasks utility does not exist in this era. */
  sendTaskStatus(): void {}
}

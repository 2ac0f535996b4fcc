/**
 * @module The request scope of a 2025 session: built once when the session negotiates (or is
 * restored), shared by all its requests. Per-message facts (an HTTP request's own identity and
 * address) are read from the request's context.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import type { Identity } from '../../jsonrpc/transport.js';
import type { Era, RevisionProfile } from '../../protocol/eras/era.js';
import { era2025 } from '../../protocol/eras/rev2025/era.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import type { RequestScope } from '../dispatch/requestScope.js';
import type { InputChannel } from '../input/inputChannel.js';
import { PushInputChannel } from '../input/pushInputChannel.js';
import type { ProtocolVersion } from '../../protocol/versions.js';
import type { SessionInfo } from '../toolContext.js';
import type { LegacyFront } from './legacyFront.js';

/** A negotiated 2025 session, whose revision is one of the handshake revisions. */
export interface LegacySessionInfo extends SessionInfo {
  readonly protocolVersion: ProtocolVersion;
}

/** What a 2025 scope is built from. */
export interface LegacyScopeOptions {
  readonly front: LegacyFront;
  readonly session: LegacySessionInfo;
  readonly profile: RevisionProfile;
  /** The identity and address given to `connect()`, used when a message brings none. */
  readonly connection: { identity: Identity | undefined; address: string | undefined };
  /** The server runs task-augmented calls. */
  readonly tasksRun: boolean;
}

/** The scope of every request of one negotiated 2025 session. */
export class LegacyScope implements RequestScope {
  readonly era: Era = era2025;
  readonly front: LegacyFront;
  readonly session: LegacySessionInfo;
  readonly profile: RevisionProfile;
  readonly clientCapabilities: ClientCapabilities;
  private readonly connection: LegacyScopeOptions['connection'];
  private readonly tasksRun: boolean;
  private pushChannel: PushInputChannel | undefined;

  constructor(options: LegacyScopeOptions) {
    this.front = options.front;
    this.session = options.session;
    this.profile = options.profile;
    this.clientCapabilities = options.session.clientCapabilities;
    this.connection = options.connection;
    this.tasksRun = options.tasksRun;
  }

  get port(): LegacyFront {
    return this.front;
  }

  /** 2025 asks the client for input by push; built when a call first asks. */
  get input(): InputChannel {
    return (this.pushChannel ??= new PushInputChannel({
      requester: this.front,
      capabilities: this.clientCapabilities,
      profile: this.profile,
    }));
  }

  identityOf(context: IncomingRequestContext): Identity | undefined {
    return context.info?.identity ?? this.connection.identity;
  }

  clientAddressOf(context: IncomingRequestContext): string | undefined {
    return context.info?.clientAddress ?? this.connection.address;
  }

  tasksOffered(identity: Identity | undefined): boolean {
    return (
      this.tasksRun &&
      this.profile.features.tasks &&
      (identity !== undefined || !this.front.transient)
    );
  }
}

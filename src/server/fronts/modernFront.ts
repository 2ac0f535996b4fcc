/**
 * @module The 2026 front: serves requests of revision 2026-07-28, each on its own (no handshake,
 * no session). It reads the request's `_meta` (-32602 when malformed, -32022 for a revision it
 * does not serve), builds the request's scope and hands it to the 2026 dispatcher, behind the
 * same middleware as the 2025 era. Transports give it requests with a {@link ModernChannel}: the
 * connection on stdio, the request's response stream over HTTP.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import type { JsonRpcRequest } from '../../jsonrpc/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import type { ParamHeader } from '../../protocol/eras/rev2026/paramHeaders.js';
import { readRequestMeta } from '../../protocol/eras/rev2026/requestMetaCheck.js';
import { methodNotFound } from '../../protocol/methods.js';
import type { ModernProtocolVersion } from '../../protocol/versions.js';
import { Dispatcher } from '../dispatch/dispatcher.js';
import type { HandlerOutcome } from '../dispatch/handlerTable.js';
import type { ServerServices } from '../dispatch/serverServices.js';
import type { RoundTripOptions } from '../input/inputRound.js';
import type { ListenStreams } from '../notify/listenStreams.js';
import type { ModernChannel } from './modernChannel.js';
import { modernHandlerTable } from './modernHandlers.js';
import type { ServerDescription2026 } from './modernMethods.js';
import { ModernScope, type ModernServerSide } from './modernScope.js';

/** What the 2026 front is built from (once per server). */
export interface ModernFrontOptions {
  readonly services: ServerServices;
  /** The server's 2026 profile, bound to its identity. */
  readonly profile: RevisionProfile;
  /** The 2026 revisions served (a `_meta` naming another is -32022). */
  readonly versions: readonly ModernProtocolVersion[];
  /** Every revision served, newest first: the `supported` list of a -32022 answer. */
  readonly served: readonly string[];
  /** What `server/discover` says. */
  readonly description: ServerDescription2026;
  /** How calls ask for input by round trip. */
  readonly rounds: RoundTripOptions;
  /** The server's open `subscriptions/listen` streams. */
  readonly listens: ListenStreams;
}

/** Serves 2026 requests for one server. */
export class ModernFront implements ModernServerSide {
  readonly profile: RevisionProfile;
  readonly versions: readonly ModernProtocolVersion[];
  /** Every revision served, newest first (a -32022 answer lists them). */
  readonly served: readonly string[];
  private readonly dispatcher: Dispatcher<ModernScope>;
  readonly rounds: RoundTripOptions;
  readonly runsTasks: boolean;
  private readonly services: ServerServices;

  constructor(options: ModernFrontOptions) {
    this.rounds = options.rounds;
    this.services = options.services;
    this.runsTasks = options.services.tasks !== undefined;
    this.profile = options.profile;
    this.versions = options.versions;
    this.served = options.served;
    this.dispatcher = new Dispatcher(
      modernHandlerTable(options.services, {
        description: options.description,
        versions: options.served,
        listens: options.listens,
        tasks: options.services.tasks,
      }),
      options.services.middleware,
    );
  }

  /** The `x-mcp-header` annotations of the enabled tool `name` (HTTP checks its headers). */
  paramHeaders(name: string): readonly ParamHeader[] | undefined {
    return this.services.paramHeaders(name);
  }

  /** Serves one 2026 request that came through `channel`. */
  serve(
    request: JsonRpcRequest,
    context: IncomingRequestContext,
    channel: ModernChannel,
  ): HandlerOutcome {
    // A method the era lacks is refused before anything else (-32601; 404 over HTTP), whatever
    // its _meta: `initialize` on a connection that opened in 2026 is one.
    if (!this.dispatcher.serves(request.method)) throw methodNotFound(request.method);
    const meta = readRequestMeta(request.params, this.versions, this.served);
    return this.dispatcher.dispatch(request, context, new ModernScope(this, channel, meta));
  }
}

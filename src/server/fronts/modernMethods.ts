/**
 * @module The 2026 front's own methods: `subscriptions/listen` (modernListen.ts) and
 * `server/discover` (server/discover), which replaces
 * `initialize`: the revisions served, the capabilities, instructions and identity, with cache
 * hints. A client may call it any time, or never. `supportedVersions` lists every revision the
 * server serves, newest first, as the -32022 answer does: the 2025 ones by `initialize`, the 2026
 * ones in a request's `_meta` (the conformance suite checks that the two lists agree).
 */
import type { JsonObject } from '../../jsonrpc/types.js';
import { Discover, Listen } from '../../protocol/methods.js';
import type { ListenStreams } from '../notify/listenStreams.js';
import type { TaskRuntime } from '../tasks/taskRuntime.js';
import { openListen } from './modernListen.js';
import { bind, type HandlerBinding } from '../dispatch/handlerTable.js';
import type { CacheHints } from '../../protocol/eras/era.js';
import type { ServerCapabilities } from '../../protocol/types.js';
import type { ModernScope } from './modernScope.js';

/** The server as `server/discover` describes it (its identity is in the profile's envelope). */
export interface ServerDescription2026 {
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
  /** How long, and for whom, a client may cache the description. */
  readonly cacheHints: CacheHints;
}

/** The `server/discover` result of `profile`'s revision (a fresh object each time). */
function discoverResult(
  description: ServerDescription2026,
  scope: ModernScope,
  versions: readonly string[],
): JsonObject {
  const profile = scope.profile;
  const result: JsonObject = {
    supportedVersions: [...versions],
    capabilities: profile.serverCapabilities(description.capabilities),
  };
  if (description.instructions !== undefined) result['instructions'] = description.instructions;
  return profile.complete(result, description.cacheHints);
}

/** The front's methods in the 2026 handler table. */
/** What the front's own methods are built from. */
export interface ModernMethodsOptions {
  /** What `server/discover` says. */
  readonly description: ServerDescription2026;
  /** Every revision served, newest first (`supportedVersions`). */
  readonly versions: readonly string[];
  /** The server's open `subscriptions/listen` streams. */
  readonly listens: ListenStreams;
  /** The server's tasks, when it runs them (a listen may watch some). */
  readonly tasks: TaskRuntime | undefined;
}

export function modernBindings(options: ModernMethodsOptions): HandlerBinding<ModernScope>[] {
  const { description, versions } = options;
  const listen = { streams: options.listens, tasks: options.tasks };
  return [
    bind(Discover, {
      serve: (_request, _context, scope) => discoverResult(description, scope, versions),
    }),
    bind(Listen, {
      serve: (request, context, scope) => openListen(listen, { request, context }, scope),
    }),
  ];
}

/**
 * @module The 2026 front of one server, built from the server's options: its profile bound to the
 * server's identity, what `server/discover` says, the revisions served. No front when the server
 * serves no 2026 revision: every opening is then a 2025 one, as before the 2026 era existed.
 */
import type { CacheHints } from '../../protocol/eras/era.js';
import { serverProfile2026 } from '../../protocol/eras/rev2026/profile.js';
import type { Implementation, ServerCapabilities } from '../../protocol/types.js';
import type { ModernProtocolVersion, ProtocolVersion } from '../../protocol/versions.js';
import type { ServerServices } from '../dispatch/serverServices.js';
import { ModernFront } from './modernFront.js';
import { TASKS_EXTENSION } from '../../tasks/eras/rev2026/taskWire.js';
import type { RoundTripOptions } from '../input/inputRound.js';
import type { ListenStreams } from '../notify/listenStreams.js';

/** What a server's 2026 front is built from. */
export interface ModernServerOptions {
  readonly services: ServerServices;
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
  readonly cacheHints: CacheHints;
  /** The 2026 revisions served, oldest first (none: no front). */
  readonly versions: readonly ModernProtocolVersion[];
  /** The 2025 revisions served, oldest first: named in a -32022 answer too. */
  readonly handshakeVersions: readonly ProtocolVersion[];
  /** How calls ask for input by round trip. */
  readonly rounds: RoundTripOptions;
  /** The server's open `subscriptions/listen` streams. */
  readonly listens: ListenStreams;
}

/** The server's 2026 front, or undefined when it serves no 2026 revision. */
export function buildModernFront(options: ModernServerOptions): ModernFront | undefined {
  if (options.versions.length === 0) return undefined;
  return new ModernFront({
    services: options.services,
    profile: serverProfile2026(options.serverInfo),
    versions: options.versions,
    served: [...[...options.versions].reverse(), ...[...options.handshakeVersions].reverse()],
    description: {
      // A server that runs tasks offers them to 2026 clients as the tasks extension.
      capabilities:
        options.services.tasks === undefined
          ? options.capabilities
          : {
              ...options.capabilities,
              extensions: { ...options.capabilities.extensions, [TASKS_EXTENSION]: {} },
            },
      instructions: options.instructions,
      cacheHints: options.cacheHints,
    },
    rounds: options.rounds,
    listens: options.listens,
  });
}

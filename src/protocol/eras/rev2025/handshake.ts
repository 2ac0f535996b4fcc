/**
 * @module The 2025 handshake, as far as it is pure protocol: which revision `initialize` agrees on,
 * and the `initialize` result a revision receives. The session state around it is the 2025 front's
 * (server/fronts/).
 */
import type { ProtocolVersion } from '../../versions.js';
import type { Implementation, InitializeResult, ServerCapabilities } from '../../types.js';
import type { RevisionProfile } from '../era.js';

/**
 * The revision to answer `initialize` with: the client's when the server enables it, else the
 * newest the server enables (the client then decides whether it can speak it).
 */
export function negotiatedRevision(
  requested: unknown,
  enabled: readonly ProtocolVersion[],
): ProtocolVersion {
  return enabled.includes(requested as ProtocolVersion)
    ? (requested as ProtocolVersion)
    : (enabled[enabled.length - 1] as ProtocolVersion);
}

/** The server's side of an `initialize` result, before it is cut to a revision. */
export interface ServerDescription {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
}

/** Builds the `initialize` result for one revision. */
export function initializeResultOf(
  profile: RevisionProfile,
  server: ServerDescription,
): InitializeResult {
  const { serverInfo, capabilities, instructions } = server;
  const result: InitializeResult = {
    protocolVersion: profile.revision as ProtocolVersion,
    capabilities: profile.serverCapabilities(capabilities),
    serverInfo: profile.implementation(serverInfo),
  };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}

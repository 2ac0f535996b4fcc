/**
 * @module Where `ServerSession` has always been imported from. The session is now the 2025 front
 * (fronts/legacySession.ts) over the shared dispatcher (dispatch/).
 */
import { era2025 } from '../protocol/eras/rev2025/era.js';
import { initializeResultOf, type ServerDescription } from '../protocol/eras/rev2025/handshake.js';
import type { InitializeResult } from '../protocol/types.js';
import type { ProtocolVersion } from '../protocol/versions.js';

export { ServerSession, type SessionOptions } from './fronts/legacySession.js';
export type { SessionHost } from './fronts/sessionHost.js';

/** Builds the initialize result for one revision. */
export function initializeResultFor(
  version: ProtocolVersion,
  server: ServerDescription,
): InitializeResult {
  const profile = era2025.profile(version);
  if (!profile) throw new RangeError(`Not a supported revision: ${String(version)}`);
  return initializeResultOf(profile, server);
}

/**
 * @module `auto` era negotiation (basic/versioning §Backward compatibility): probe with
 * `server/discover`; a discover result that names 2026-07-28 opens a 2026 session, and so does a
 * recognised 2026 refusal of the request itself (-32020, -32021: the server speaks the era, the
 * error is the client's to see). Anything else (an error of any other code, a result that is not
 * a discover result, a -32022 naming only 2025 revisions, a timeout, an HTTP status without a
 * JSON-RPC body) falls back to `initialize` on the same connection: never keyed on one error
 * code. The outcome is remembered per process or origin (eraMemory.ts).
 */
import { ErrorCode, LocalError, RpcError } from '../../jsonrpc/errors.js';
import type { EraSession, Opening } from './eraSession.js';
import { rememberedEra, rememberEra } from './eraMemory.js';
import { openLegacy } from './legacy.js';
import { openModern } from './modern.js';

/** How long the probe waits for an answer before taking the server for a 2025-era one. */
const DEFAULT_PROBE_MS = 10_000;

/** True when a failed probe shows the server speaks 2026-07-28 (no fallback then). */
function speaksModern(error: unknown): boolean {
  return (
    error instanceof RpcError &&
    (error.code === ErrorCode.HeaderMismatch ||
      error.code === ErrorCode.MissingRequiredClientCapability)
  );
}

/**
 * True when the server's process failed (a stdio server that exited with a code other than 0, or
 * was killed): its failure is the caller's to see as it is, not a sign that the probe ended it.
 */
function crashed(error: unknown): boolean {
  const { exitCode, signal } = error as { exitCode?: unknown; signal?: unknown };
  return (typeof exitCode === 'number' && exitCode !== 0) || typeof signal === 'string';
}

/** True when the connection cannot carry an `initialize` after the probe. */
function connectionGone(error: unknown): boolean {
  return error instanceof LocalError && (error.code === 'closed' || error.code === 'aborted');
}

/**
 * The probe ended the connection: the server (a stdio process that exits on a request before
 * `initialize`) cannot be asked again over it. The era is remembered as legacy for its endpoint,
 * so a client given a fresh transport to it (McpClient respawns a stdio server) opens with
 * `initialize` straight away.
 */
export class ProbeEndedConnection extends LocalError {
  constructor(cause: unknown) {
    super(
      'closed',
      'The server ended the connection when probed with server/discover (a 2025-era server that takes nothing before initialize)',
      { cause },
    );
  }
}

/** Opens a session in the era the server speaks. */
export async function openAuto(opening: Opening): Promise<EraSession> {
  const key = opening.transport.endpointKey;
  if (rememberedEra(key) === 'legacy') return openLegacy(opening);
  const timeoutMs = Math.min(opening.options.timeoutMs ?? DEFAULT_PROBE_MS, DEFAULT_PROBE_MS);
  try {
    const session = await openModern({ ...opening, options: { ...opening.options, timeoutMs } });
    rememberEra(key, 'modern');
    return session;
  } catch (error) {
    if (speaksModern(error)) throw error;
    if (connectionGone(error)) {
      if (opening.connection.closed && !opening.options.signal?.aborted && !crashed(error)) {
        rememberEra(key, 'legacy');
        throw new ProbeEndedConnection(error);
      }
      throw error;
    }
  }
  // The probe told the transport the 2026 revision: a 2025 handshake starts without one.
  opening.transport.setProtocolVersion?.(undefined);
  const session = await openLegacy(opening);
  rememberEra(key, 'legacy');
  return session;
}

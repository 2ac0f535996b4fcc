/**
 * @module What a session negotiated, as a plain JSON snapshot: several server instances serving
 * one HTTP session (behind a load balancer, state in Redis) restore it instead of repeating the
 * handshake. Snapshots come back from a shared store, so restoring checks them like any input.
 */
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../../protocol/types.js';
import type { ProtocolVersion } from '../../protocol/versions.js';
import type { SessionInfo } from '../toolContext.js';
import type { LegacySessionInfo } from './legacyScope.js';

/** A session's negotiated state. */
export interface SessionState {
  readonly info: Omit<LegacySessionInfo, 'id'>;
  /** The level set by `logging/setLevel`, if any. */
  readonly logLevel: LoggingLevel | undefined;
}

/** Saves a session's state where other instances can read it; rejects when it cannot. */
export type PersistSessionState = (state: JsonObject) => Promise<void>;

/** The snapshot of a state (format 1). */
export function snapshotOf(state: SessionState): JsonObject {
  const snapshot: JsonObject = {
    format: 1,
    protocolVersion: state.info.protocolVersion,
    clientInfo: state.info.clientInfo,
    clientCapabilities: state.info.clientCapabilities,
  };
  if (state.logLevel !== undefined) snapshot['logLevel'] = state.logLevel;
  return snapshot;
}

/**
 * Reads a snapshot back; undefined when it is not one this server can restore (an unknown
 * format, or a revision it does not speak).
 */
export function restoreState(
  snapshot: JsonObject,
  supported: readonly ProtocolVersion[],
): SessionState | undefined {
  const { format, protocolVersion, clientInfo, clientCapabilities, logLevel } = snapshot;
  if (format !== 1) return undefined;
  if (!supported.includes(protocolVersion as ProtocolVersion)) return undefined;
  if (!isPlainObject(clientInfo) || typeof clientInfo['name'] !== 'string') return undefined;
  if (!isPlainObject(clientCapabilities)) return undefined;
  if (logLevel !== undefined && !LOGGING_LEVELS.includes(logLevel as LoggingLevel))
    return undefined;
  return {
    info: {
      protocolVersion: protocolVersion as ProtocolVersion,
      clientInfo: clientInfo as unknown as SessionInfo['clientInfo'],
      clientCapabilities: clientCapabilities,
    },
    logLevel: logLevel as LoggingLevel | undefined,
  };
}

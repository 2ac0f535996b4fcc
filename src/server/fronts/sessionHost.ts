/** @module What a connection's front (a 2025 session, or a 2026 connection) needs from its server. */
import type { RevisionProfile } from '../../protocol/eras/era.js';
import type { InitializeResult } from '../../protocol/types.js';
import type { ProtocolVersion } from '../../protocol/versions.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import type { ServerServices } from '../dispatch/serverServices.js';
import type { ServerInstrumentation } from '../middleware/instrumentation.js';
import type { SessionPort } from '../toolContext.js';
import type { LegacyScope } from './legacyScope.js';
import type { ModernFront } from './modernFront.js';

/** The server as its 2025 sessions see it. */
export interface SessionHost extends ServerServices {
  readonly protocolVersions: readonly ProtocolVersion[];
  /** How many times the tool registry has changed so far. */
  changeCount(): number;
  initializeResult(profile: RevisionProfile, options: { tasks: boolean }): InitializeResult;
  /** Serves the requests of negotiated sessions (the 2025 era's handler table). */
  readonly dispatcher: Dispatcher<LegacyScope>;
  /** Serves connections that open in the 2026 era; undefined when the server serves no 2026 revision. */
  readonly modern: ModernFront | undefined;
  /** The instrumentation middleware brought (empty: sessions build nothing of it). */
  readonly instrumentations: readonly ServerInstrumentation[];
  readonly connectionOptions: { maxInFlight: number; maxQueued: number; requestTimeoutMs: number };
  sessionClosed(session: SessionPort): void;
}

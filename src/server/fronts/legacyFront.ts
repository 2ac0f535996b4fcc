/** @module What the 2025 front's own methods (`logging/setLevel`) need from its session. */
import type { LoggingLevel } from '../../protocol/types.js';
import type { HandlerOutcome } from '../dispatch/handlerTable.js';
import type { SessionPort } from '../toolContext.js';

/** A 2025 session, as its own method handlers reach it. */
export interface LegacyFront extends SessionPort {
  /** Sets the session's log threshold (stored first when sessions are shared; see persistence). */
  setLogLevel(level: LoggingLevel): HandlerOutcome;
}

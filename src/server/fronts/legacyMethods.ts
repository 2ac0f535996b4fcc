/**
 * @module The 2025 front's own methods in the era's handler table, where middleware see them:
 * `ping` and `logging/setLevel`. (`initialize`, and `ping` before it, are served by the session
 * itself: no middleware sees them, since no revision is agreed yet.)
 */
import { Ping, SetLevel } from '../../protocol/methods.js';
import { parseLoggingLevel } from '../../protocol/params.js';
import { bind, type HandlerBinding } from '../dispatch/handlerTable.js';
import type { LegacyScope } from './legacyScope.js';

/** The front's methods in the 2025 handler table. */
export const LEGACY_BINDINGS: readonly HandlerBinding<LegacyScope>[] = [
  bind(Ping, { serve: () => ({}) }),
  bind(SetLevel, {
    serve: (request, _context, scope) => scope.front.setLogLevel(parseLoggingLevel(request.params)),
  }),
];

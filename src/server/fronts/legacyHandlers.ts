/** @module The 2025 era's handler table: the shared tools and task handlers, and the front's own. */
import { era2025 } from '../../protocol/eras/rev2025/era.js';
import { handlerTable, type HandlerTable } from '../dispatch/handlerTable.js';
import type { ServerServices } from '../dispatch/serverServices.js';
import { taskBindings } from '../tasks/eras/rev2025/taskHandlers.js';
import { toolBindings } from '../dispatch/toolMethods.js';
import { LEGACY_BINDINGS } from './legacyMethods.js';
import type { LegacyScope } from './legacyScope.js';

/** Builds the handler table 2025 sessions of `server` are served from (once per server). */
export function legacyHandlerTable(server: ServerServices): HandlerTable<LegacyScope> {
  return handlerTable<LegacyScope>(era2025, [
    ...toolBindings(server),
    ...taskBindings(server),
    ...LEGACY_BINDINGS,
  ]);
}

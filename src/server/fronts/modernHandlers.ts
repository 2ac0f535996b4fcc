/** @module The 2026 era's handler table: the shared tools handlers and the front's own. */
import { era2026 } from '../../protocol/eras/rev2026/era.js';
import { handlerTable, type HandlerTable } from '../dispatch/handlerTable.js';
import type { ServerServices } from '../dispatch/serverServices.js';
import { toolBindings } from '../dispatch/toolMethods.js';
import { extensionTaskBindings } from '../tasks/eras/rev2026/extensionMethods.js';
import { modernBindings, type ModernMethodsOptions } from './modernMethods.js';
import type { ModernScope } from './modernScope.js';

/** Builds the handler table 2026 requests to `server` are served from (once per server). */
export function modernHandlerTable(
  server: ServerServices,
  methods: ModernMethodsOptions,
): HandlerTable<ModernScope> {
  return handlerTable<ModernScope>(era2026, [
    ...toolBindings(server),
    ...extensionTaskBindings(server.tasks),
    ...modernBindings(methods),
  ]);
}

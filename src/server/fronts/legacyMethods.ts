/**
 * @module The 2025 front's own methods: `ping` and `logging/setLevel` in the era's handler table
 * (middleware see them), and the two methods a session serves before it is negotiated
 * (`initialize`, `ping`), which no middleware sees since no revision is agreed yet.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import type { JsonRpcRequest } from '../../jsonrpc/types.js';
import { Initialize, Ping, SetLevel } from '../../protocol/methods.js';
import { parseLoggingLevel } from '../../protocol/params.js';
import { bind, type HandlerBinding, type HandlerOutcome } from '../dispatch/handlerTable.js';
import type { LegacyScope } from './legacyScope.js';

/** The front's methods in the 2025 handler table. */
export const LEGACY_BINDINGS: readonly HandlerBinding<LegacyScope>[] = [
  bind(Ping, { serve: () => ({}) }),
  bind(SetLevel, {
    serve: (request, _context, scope) => scope.front.setLogLevel(parseLoggingLevel(request.params)),
  }),
];

/** A session before `initialize` was answered. */
export interface OpeningFront {
  initialize(request: JsonRpcRequest, context: IncomingRequestContext): HandlerOutcome;
}

type OpeningHandler = (
  front: OpeningFront,
  request: JsonRpcRequest,
  context: IncomingRequestContext,
) => HandlerOutcome;

/** What a session serves before (and, for `initialize`, instead of) the handler table. */
export const OPENING_METHODS: ReadonlyMap<string, OpeningHandler> = new Map<string, OpeningHandler>(
  [
    [Ping.method, () => ({})],
    [Initialize.method, (front, request, context) => front.initialize(request, context)],
  ],
);

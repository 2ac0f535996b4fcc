/**
 * @module Descriptors of the lifecycle methods: the 2025 handshake (`initialize`,
 * `notifications/initialized`, `ping`, `logging/setLevel`) and its 2026 replacement
 * (`server/discover`; the log level travels in each request's `_meta` there).
 */
import { INITIALIZE, INITIALIZED } from '../../jsonrpc/methods.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { parseInitializeParams, parseSetLevelParams } from '../params.js';
import type { InitializeParams, InitializeResult, LoggingLevel } from '../types.js';
import {
  ERA_2025,
  ERA_2026,
  notification,
  request,
  type RequestMethod,
  type NotificationMethod,
} from './descriptor.js';

/** `initialize`: the 2025 handshake that agrees on a revision and capabilities. */
export const Initialize: RequestMethod<InitializeParams, InitializeResult> = request(INITIALIZE, {
  direction: 'client-to-server',
  since: '2024-11-05',
  eras: ERA_2025,
  params: parseInitializeParams,
});

/** `notifications/initialized`: the client is ready after `initialize`. */
export const Initialized: NotificationMethod<JsonObject> = notification(INITIALIZED, {
  direction: 'client-to-server',
  since: '2024-11-05',
  eras: ERA_2025,
});

/** `ping` (either side; removed in 2026-07-28). */
export const Ping: RequestMethod<JsonObject, JsonObject> = request('ping', {
  direction: 'both',
  since: '2024-11-05',
  eras: ERA_2025,
});

/** `logging/setLevel`: the session's log threshold (per request `_meta` in 2026-07-28). */
export const SetLevel: RequestMethod<{ level: LoggingLevel }, JsonObject> = request(
  'logging/setLevel',
  {
    direction: 'client-to-server',
    since: '2024-11-05',
    eras: ERA_2025,
    capability: { of: 'server', key: 'logging' },
    params: parseSetLevelParams,
  },
);

/**
 * `server/discover` (2026-07-28): the server's supported revisions, capabilities, info and
 * instructions, cacheable. The result is read by `parseDiscoverResult` (eras/rev2026/discover.ts).
 */
export const Discover: RequestMethod<JsonObject, JsonObject> = request('server/discover', {
  direction: 'client-to-server',
  since: '2026-07-28',
  eras: ERA_2026,
});

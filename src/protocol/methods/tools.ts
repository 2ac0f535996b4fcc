/** @module Descriptors of the tools methods: `tools/list`, `tools/call` and their list_changed. */
import { TOOLS_CALL, TOOLS_LIST_CHANGED } from '../../jsonrpc/methods.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { parseCallToolParams, parsePaginatedParams } from '../params.js';
import type { CallToolResult, ListToolsResult } from '../types.js';
import {
  BOTH_ERAS,
  notification,
  request,
  type RequestMethod,
  type NotificationMethod,
} from './descriptor.js';
import type { CallToolParams, PaginatedParams } from './paramTypes.js';

/** `tools/list` (paginated). */
export const ListTools: RequestMethod<PaginatedParams, ListToolsResult> = request('tools/list', {
  direction: 'client-to-server',
  since: '2024-11-05',
  eras: BOTH_ERAS,
  capability: { of: 'server', key: 'tools' },
  params: parsePaginatedParams,
});

/** `tools/call` */
export const CallTool: RequestMethod<CallToolParams, CallToolResult> = request(TOOLS_CALL, {
  direction: 'client-to-server',
  since: '2024-11-05',
  eras: BOTH_ERAS,
  capability: { of: 'server', key: 'tools' },
  params: parseCallToolParams,
});

/**
 * `notifications/tools/list_changed`: pushed on the session in 2025, only on a
 * `subscriptions/listen` stream in 2026-07-28.
 */
export const ToolListChanged: NotificationMethod<JsonObject> = notification(TOOLS_LIST_CHANGED, {
  direction: 'server-to-client',
  since: '2024-11-05',
  eras: BOTH_ERAS,
  capability: { of: 'server', key: 'tools' },
});

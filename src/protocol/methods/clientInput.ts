/**
 * @module Descriptors of what a server asks of the client (sampling, elicitation, roots). They are
 * push requests of the 2025 era; 2026-07-28 forbids requests from the server and carries the same
 * kinds inside an `InputRequiredResult` instead, so as wire methods they belong to 2025 only.
 */
import type { JsonObject } from '../../jsonrpc/types.js';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  ListRootsResult,
} from '../types.js';
import {
  ERA_2025,
  notification,
  request,
  type RequestMethod,
  type NotificationMethod,
} from './descriptor.js';

/** `sampling/createMessage` */
export const CreateMessage: RequestMethod<CreateMessageParams, CreateMessageResult> = request(
  'sampling/createMessage',
  {
    direction: 'server-to-client',
    since: '2024-11-05',
    eras: ERA_2025,
    capability: { of: 'client', key: 'sampling' },
  },
);

/** `elicitation/create` */
export const Elicit: RequestMethod<ElicitParams, ElicitResult> = request('elicitation/create', {
  direction: 'server-to-client',
  since: '2025-06-18',
  eras: ERA_2025,
  capability: { of: 'client', key: 'elicitation' },
});

/** `roots/list` */
export const ListRoots: RequestMethod<JsonObject, ListRootsResult> = request('roots/list', {
  direction: 'server-to-client',
  since: '2024-11-05',
  eras: ERA_2025,
  capability: { of: 'client', key: 'roots' },
});

/** `notifications/roots/list_changed` (removed in 2026-07-28). */
export const RootsListChanged: NotificationMethod<JsonObject> = notification(
  'notifications/roots/list_changed',
  {
    direction: 'client-to-server',
    since: '2024-11-05',
    eras: ERA_2025,
    capability: { of: 'client', key: 'roots' },
  },
);

/** `notifications/elicitation/complete` (2025-11-25, URL mode). */
export const ElicitationComplete: NotificationMethod<{ elicitationId: string }> = notification(
  'notifications/elicitation/complete',
  {
    direction: 'server-to-client',
    since: '2025-11-25',
    eras: ERA_2025,
    capability: { of: 'client', key: 'elicitation' },
  },
);

/**
 * @module Reading the two notifications a connection handles itself, whatever the protocol on
 * top: `notifications/progress` (an update for a progress token) and `notifications/cancelled`
 * (the reason the peer gives).
 */
import { isRequestId } from './guards.js';
import type { Progress } from './pendingRequests.js';
import type { JsonObject, RequestId } from './types.js';

/** A progress notification's token and update; undefined when it is not well formed. */
export function progressOf(
  params: JsonObject | undefined,
): { token: RequestId; update: Progress } | undefined {
  const token = params?.['progressToken'];
  const progress = params?.['progress'];
  if (!isRequestId(token) || typeof progress !== 'number') return undefined;
  const update: Progress = { progress };
  if (typeof params?.['total'] === 'number') update.total = params['total'];
  if (typeof params?.['message'] === 'string') update.message = params['message'];
  return { token, update };
}

/** The reason a cancellation gives, or the default one. */
export function cancelReason(params: JsonObject | undefined): string {
  const reason = params?.['reason'];
  return typeof reason === 'string' ? reason : 'Cancelled by the peer';
}

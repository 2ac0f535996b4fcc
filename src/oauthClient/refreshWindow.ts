/**
 * @module When held tokens are due for a refresh: shortly before the access token expires, the
 * window being the client's `refreshSkewMs` (60 s by default) but at most a third of the lifetime
 * the token was issued with. A token living less than the window would otherwise be refreshed on
 * every request (a 30 s token with a 60 s window is always "about to expire").
 */
import type { StoredTokens } from './types.js';

/** The default refresh window: refresh this long before the access token expires. */
export const DEFAULT_REFRESH_SKEW_MS = 60_000;

/** How long before it expires a token is refreshed: `skewMs`, at most a third of its lifetime. */
export function refreshWindowMs(tokens: StoredTokens, skewMs: number): number {
  const lifetime = tokens.expiresIn;
  if (lifetime === undefined || !(lifetime > 0)) return skewMs;
  return Math.min(skewMs, (lifetime * 1000) / 3);
}

/** Whether `tokens` should be refreshed before they are sent (false when no expiry is known). */
export function refreshDue(
  tokens: StoredTokens,
  skewMs: number,
  now: number = Date.now(),
): boolean {
  if (tokens.expiresAt === undefined) return false;
  return tokens.expiresAt - refreshWindowMs(tokens, skewMs) <= now;
}

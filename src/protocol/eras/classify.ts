/**
 * @module Which era an opening message (the first request on stdio, a request without a session
 * over HTTP) belongs to (basic/versioning §Backward compatibility): a request whose `_meta` names
 * a protocol version, or `server/discover`, opens the 2026 era; anything else (`initialize`, or a
 * message too broken to tell) the 2025 era. The front that receives it asks once and hands the
 * era to everything behind. A `_meta` naming a version the server does not serve still opens the
 * 2026 era, whose front answers it -32022 with the versions it does serve.
 */
import { isPlainObject } from '../../jsonrpc/guards.js';
import { Discover } from '../methods.js';
import type { Era } from './era.js';
import { era2025 } from './rev2025/era.js';
import { era2026 } from './rev2026/era.js';
import { META } from './rev2026/requestMeta.js';

/** True when `message` is a request of the 2026 era (it is not trusted to be well formed). */
export function opensModernEra(message: unknown): boolean {
  if (!isPlainObject(message) || typeof message['method'] !== 'string') return false;
  if (message['method'] === Discover.method) return true;
  const params = message['params'];
  if (!isPlainObject(params)) return false;
  const meta = params['_meta'];
  return isPlainObject(meta) && meta[META.protocolVersion] !== undefined;
}

/** The era of an opening message. */
export function classifyOpening(message: unknown): Era {
  return opensModernEra(message) ? era2026 : era2025;
}

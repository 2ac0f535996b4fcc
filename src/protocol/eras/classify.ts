/**
 * @module Which era an opening message (the first message on stdio, a POST without a session over
 * HTTP) belongs to. The front that receives it asks once and hands the era to everything behind.
 * Today only the 2025 era is served, so every message is classified as 2025; the 2026 rules (a
 * request carrying `_meta["io.modelcontextprotocol/protocolVersion"]` of a 2026 revision, or
 * `server/discover`) come with the 2026 era.
 */
import type { Era } from './era.js';
import { era2025 } from './rev2025/era.js';

/** The era of an opening message (anything: it is not trusted to be well formed). */
export function classifyOpening(_message: unknown): Era {
  return era2025;
}

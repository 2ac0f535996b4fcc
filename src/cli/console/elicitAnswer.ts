/**
 * @module What the page may send as the answer to a server's elicitation: an action, and with
 * `accept` an object of content. Anything else is refused before it reaches the server.
 */
import type { ElicitResult } from '../../index.js';

/** An elicitation answer the page may send: an action, and content with accept. */
export function isElicitResult(value: unknown): value is ElicitResult {
  if (typeof value !== 'object' || value === null) return false;
  const { action, content } = value as Record<string, unknown>;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return false;
  return (
    content === undefined ||
    (typeof content === 'object' && content !== null && !Array.isArray(content))
  );
}

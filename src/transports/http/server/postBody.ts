/**
 * @module A POST's body as a JSON-RPC message, or the reply refusing it: too large (413, the
 * connection closed), not UTF-8 or not JSON (400 -32700), not a JSON-RPC message shape the
 * decoder accepts (400 -32600). Shared by the 2025 sessions' POSTs and the 2026 ones.
 */
import { decodeMessage, DEFAULT_MAX_DEPTH } from '../../../jsonrpc/decode.js';
import type { BodyResult } from '../shared/body.js';
import type { HttpReply } from './exchange.js';
import { failureReply } from './httpStatus.js';

/** The decoded body, or the reply that refuses it. */
export function decodedBody(
  body: BodyResult,
  limits: { maxBodyBytes: number; maxDepth: number | undefined },
): { ok: true; value: unknown } | { ok: false; reply: HttpReply } {
  if (!body.ok)
    return {
      ok: false,
      reply:
        body.reason === 'too-large'
          ? failureReply('tooLarge', `The body exceeds ${limits.maxBodyBytes} bytes`, {
              connection: 'close',
            })
          : failureReply('parse', 'Parse error: the body is not valid UTF-8'),
    };
  const decoded = decodeMessage(body.text, limits.maxDepth ?? DEFAULT_MAX_DEPTH);
  if (!decoded.ok)
    return {
      ok: false,
      reply: failureReply(
        decoded.error.code === -32700 ? 'parse' : 'invalidMessage',
        decoded.error.message,
      ),
    };
  return { ok: true, value: decoded.value };
}

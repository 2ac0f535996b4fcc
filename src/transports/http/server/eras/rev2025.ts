/**
 * @module What the Streamable HTTP server checks of the 2025-era revisions' `MCP-Protocol-Version`
 * header, and the one rule of a revision about a POST's body (batches, 2025-03-26 only). Kept
 * apart from the handler so that the revision literals live in one place, beside which the 2026
 * revision's header rules (Mcp-Method, Mcp-Name: protocol/eras/) will sit.
 */
import type { HttpExchange, HttpReply } from '../exchange.js';
import { failureReply } from '../httpStatus.js';

/**
 * The revision a request without `MCP-Protocol-Version` is taken to speak: the spec has servers
 * assume 2025-03-26 then, for clients that predate the header.
 */
const HEADERLESS_REVISION = '2025-03-26';

/** The one revision in which a POST may carry a JSON-RPC batch. */
const BATCH_REVISION = '2025-03-26';

/** A request naming a revision the server does not support is a 400; no header is fine. */
export function unsupportedVersionProblem(
  exchange: HttpExchange,
  supported: readonly string[],
): HttpReply | undefined {
  const version = exchange.header('mcp-protocol-version');
  if (version !== null && !supported.includes(version)) {
    return failureReply(
      'badProtocolVersion',
      `Unsupported MCP-Protocol-Version ${JSON.stringify(version)} (supported: ${supported.join(', ')})`,
    );
  }
  return undefined;
}

/**
 * A request on a session must name the revision negotiated on it: a supported but different
 * `MCP-Protocol-Version` (checked against the supported list before) is a 400. An absent header
 * is left alone (see {@link HEADERLESS_REVISION}).
 */
export function sessionVersionProblem(
  exchange: HttpExchange,
  negotiated: string | undefined,
): HttpReply | undefined {
  const header = exchange.header('mcp-protocol-version');
  if (header === null || negotiated === undefined || header === negotiated) return undefined;
  return failureReply(
    'badProtocolVersion',
    `MCP-Protocol-Version ${JSON.stringify(header)} differs from the version negotiated on this session (${negotiated})`,
  );
}

/** A batch POSTed on a session of a revision without batches is refused. */
export function batchProblem(negotiated: string | undefined): HttpReply | undefined {
  if (negotiated === BATCH_REVISION) return undefined;
  return failureReply(
    'invalidMessage',
    `Batches are not supported in protocol revision ${negotiated ?? 'unknown'}`,
  );
}

/** The revision a session started without `initialize` (stateless mode) speaks. */
export function assumedVersion(exchange: HttpExchange): string {
  return exchange.header('mcp-protocol-version') ?? HEADERLESS_REVISION;
}

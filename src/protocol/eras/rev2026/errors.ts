/**
 * @module The typed errors of revision 2026-07-28 (basic/versioning, basic/index): a header that
 * disagrees with the body (-32020), a client capability the request lacks (-32021) and a protocol
 * version the server does not serve (-32022). Over Streamable HTTP each is answered with status
 * 400 and the request's id kept.
 */
import { ErrorCode, RpcError } from '../../../jsonrpc/errors.js';
import type { ClientCapabilities } from '../../types.js';

/** -32020: an HTTP header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) disagrees with the body. */
export function headerMismatch(detail: string): RpcError {
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${detail}`);
}

/**
 * -32021: serving the request needs client capabilities it did not declare. `data` names them as
 * a `ClientCapabilities` object (not a list), e.g. `{ elicitation: {} }`.
 */
export function missingCapability(
  required: ClientCapabilities,
  message = `The request needs the client capabilities ${JSON.stringify(required)}`,
): RpcError {
  return new RpcError(ErrorCode.MissingRequiredClientCapability, message, {
    requiredCapabilities: required,
  });
}

/** -32022: the request asked for a revision this server does not serve; `data` lists those it does. */
export function unsupportedVersion(requested: string, supported: readonly string[]): RpcError {
  return new RpcError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
    supported: [...supported],
    requested,
  });
}

/** True for the errors a 2026 server answers over HTTP with status 400 (besides malformed `_meta`). */
export function isModernRequestError(code: number): boolean {
  return (
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.UnsupportedProtocolVersion
  );
}

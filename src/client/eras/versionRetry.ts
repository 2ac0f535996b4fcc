/**
 * @module A 2026-07-28 request refused with -32022 (UnsupportedProtocolVersionError) is sent once
 * more when the error's `supported` list names a revision this client speaks (basic/versioning:
 * the client retries with a version the server supports). A second refusal, or a list without one,
 * is the caller's: a `LocalError('unsupported-version')` naming what the server supports, which
 * `auto` negotiation reads as "not a 2026 server" and answers with the 2025 handshake.
 */
import { ErrorCode, LocalError, RpcError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { ModernProtocolVersion } from '../../protocol/versions.js';

/** The revisions a -32022 error says the server supports (empty when it says none readably). */
function supportedOf(error: RpcError): string[] {
  const data = error.data as { supported?: unknown } | undefined;
  const list = data?.supported;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

/** The refusal as the caller sees it: what the server supports, and that this client cannot follow. */
function refusal(error: RpcError, spoken: ModernProtocolVersion): LocalError {
  const supported = supportedOf(error);
  return new LocalError(
    'unsupported-version',
    `The server does not accept revision ${spoken} (it supports ${supported.join(', ') || 'no revision it named'})`,
    { cause: error },
  );
}

/**
 * Sends a request (`send`) and, on a -32022 whose `supported` list names `spoken`, sends it once
 * more (a new request id; the same `_meta`, which already carries `spoken`). The server may have
 * answered from an instance that was being upgraded, or refused the version it now names; either
 * way one retry is what the page allows, never a loop.
 */
export async function withVersionRetry(
  send: () => Promise<JsonObject>,
  spoken: ModernProtocolVersion,
): Promise<JsonObject> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof RpcError) || error.code !== ErrorCode.UnsupportedProtocolVersion)
      throw error;
    if (!supportedOf(error).includes(spoken)) throw refusal(error, spoken);
  }
  try {
    return await send();
  } catch (error) {
    if (error instanceof RpcError && error.code === ErrorCode.UnsupportedProtocolVersion)
      throw refusal(error, spoken);
    throw error;
  }
}

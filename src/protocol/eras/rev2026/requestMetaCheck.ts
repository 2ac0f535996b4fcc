/**
 * @module The server's reading of a 2026-07-28 request's `_meta` (basic/index §_meta): the
 * revision and the client's capabilities are required on every request, since there is no
 * handshake to remember them; the client's identity, a log level and a progress token are
 * optional. A missing or ill-typed field is -32602; a revision the server does not serve is -32022
 * with the revisions it does.
 */
import { isPlainObject } from '../../../jsonrpc/guards.js';
import { ErrorCode, RpcError } from '../../../jsonrpc/errors.js';
import type { JsonObject, ProgressToken } from '../../../jsonrpc/types.js';
import {
  LOGGING_LEVELS,
  type ClientCapabilities,
  type Implementation,
  type LoggingLevel,
} from '../../types.js';
import { isModernVersion, type ModernProtocolVersion } from '../../versions.js';
import { unsupportedVersion } from './errors.js';
import { META } from './requestMeta.js';

/** What a 2026 request says about itself. */
export interface ModernRequestMeta {
  readonly protocolVersion: ModernProtocolVersion;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** The lowest level of log messages the request wants; none are sent without it. */
  readonly logLevel: LoggingLevel | undefined;
  readonly progressToken: ProgressToken | undefined;
}

/**
 * -32602 for a malformed `_meta`: its own class, because over HTTP it is answered 400 where
 * other -32602 errors (an unknown tool) are 200, and the transport tells them apart by it.
 */
export class RequestMetaError extends RpcError {
  constructor(detail: string) {
    super(ErrorCode.InvalidParams, `Invalid request _meta: ${detail}`);
  }
}

function malformed(detail: string): RpcError {
  return new RequestMetaError(detail);
}

function isImplementation(value: unknown): value is Implementation {
  return (
    isPlainObject(value) &&
    typeof value['name'] === 'string' &&
    typeof value['version'] === 'string'
  );
}

/**
 * Reads the `_meta` of a 2026 request. `served` lists the revisions the server serves, newest
 * first (2025 ones included: the -32022 answer names every revision a client could fall back to);
 * `modern` says which of them a `_meta` may name.
 */
export function readRequestMeta(
  params: JsonObject | undefined,
  modern: readonly string[],
  served: readonly string[],
): ModernRequestMeta {
  const meta = params?.['_meta'];
  if (!isPlainObject(meta)) throw malformed('every request must carry _meta');
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string') throw malformed(`"${META.protocolVersion}" must be a string`);
  if (!isModernVersion(version) || !modern.includes(version))
    throw unsupportedVersion(version, served);
  const capabilities = meta[META.clientCapabilities];
  if (!isPlainObject(capabilities))
    throw malformed(`"${META.clientCapabilities}" must be an object`);
  const clientInfo = meta[META.clientInfo];
  if (clientInfo !== undefined && !isImplementation(clientInfo))
    throw malformed(`"${META.clientInfo}" must be an object with a name and a version`);
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !(LOGGING_LEVELS as readonly unknown[]).includes(logLevel))
    throw malformed(`"${META.logLevel}" must be one of ${LOGGING_LEVELS.join(', ')}`);
  const token = meta['progressToken'];
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number')
    throw malformed('"progressToken" must be a string or a number');
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    clientInfo,
    logLevel: logLevel as LoggingLevel | undefined,
    progressToken: token,
  };
}

/**
 * @module `server/discover`, which replaces `initialize` in revision 2026-07-28: the versions,
 * capabilities, identity and instructions of a server, asked for without opening a session.
 */
import { LocalError } from '../../../jsonrpc/errors.js';
import { isPlainObject } from '../../../jsonrpc/guards.js';
import type { JsonObject } from '../../../jsonrpc/types.js';
import { Discover } from '../../methods.js';
import type { Implementation, ServerCapabilities } from '../../types.js';
import { META } from './requestMeta.js';
import { checkResultType } from './resultType.js';

/** What `server/discover` says about the server. */
export interface DiscoverResult {
  readonly supportedVersions: readonly string[];
  readonly capabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
}

function invalid(problem: string): LocalError {
  return new LocalError('invalid-response', `The server/discover result ${problem}`);
}

/** Reads a `server/discover` result; throws `invalid-response` for a malformed one. */
export function parseDiscoverResult(raw: JsonObject): DiscoverResult {
  checkResultType(raw, Discover.method);
  const versions = raw['supportedVersions'];
  if (!Array.isArray(versions) || !versions.every((v) => typeof v === 'string'))
    throw invalid('has no "supportedVersions" array of strings');
  const capabilities = raw['capabilities'];
  if (!isPlainObject(capabilities)) throw invalid('has no "capabilities" object');
  const meta = isPlainObject(raw['_meta']) ? raw['_meta'] : undefined;
  const info = meta?.[META.serverInfo];
  const serverInfo =
    isPlainObject(info) && typeof info['name'] === 'string' && typeof info['version'] === 'string'
      ? (info as unknown as Implementation)
      : undefined;
  const instructions = raw['instructions'];
  return {
    supportedVersions: versions,
    capabilities: capabilities,
    serverInfo,
    instructions: typeof instructions === 'string' ? instructions : undefined,
  };
}

/**
 * @module The revision profile of 2026-07-28: tools and content as 2025-11-25 has them, less the
 * 2025 tasks utility (`Tool.execution`, the `tasks` capability); `structuredContent` of any JSON
 * value; and the envelope of every complete result (`resultType`, the server's identity in
 * `_meta`, cache hints where the result is cacheable). A server binds a profile to its identity
 * once; the unbound one (no identity) is what the era hands out.
 */
import type { JsonObject } from '../../../jsonrpc/types.js';
import type { CallToolResult, Implementation, ServerCapabilities } from '../../types.js';
import { featuresOf, MODERN_PROTOCOL_VERSIONS } from '../../versions.js';
import type { CacheHints, RevisionProfile } from '../era.js';
import {
  contentForRevision,
  implementationForRevision,
  serverCapabilitiesForRevision,
  toolForRevision,
} from '../rev2025/projection.js';
import { META } from './requestMeta.js';

const REVISION = MODERN_PROTOCOL_VERSIONS[0];
const FEATURES = featuresOf(REVISION);

/** A tool result of 2026: any structured value, and the complete-result envelope. */
function callToolResult(
  result: CallToolResult,
  serverMeta: JsonObject | undefined,
): CallToolResult {
  const content = result.content.map((block, i) => contentForRevision(block, FEATURES, i));
  const out: CallToolResult & { resultType?: string } = { content };
  if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
  if (result.isError !== undefined) out.isError = result.isError;
  const meta = withServerMeta(result._meta, serverMeta);
  if (meta !== undefined) out._meta = meta;
  out.resultType = 'complete';
  return out;
}

function withServerMeta(
  meta: JsonObject | undefined,
  serverMeta: JsonObject | undefined,
): JsonObject | undefined {
  if (serverMeta === undefined) return meta;
  return meta === undefined ? serverMeta : { ...meta, ...serverMeta };
}

function profileOf(serverInfo: Implementation | undefined): RevisionProfile {
  const serverMeta =
    serverInfo === undefined
      ? undefined
      : Object.freeze({ [META.serverInfo]: implementationForRevision(serverInfo, FEATURES) });
  return Object.freeze({
    revision: REVISION,
    features: FEATURES,
    tool: (tool) => toolForRevision(tool, FEATURES),
    callToolResult: (result) => callToolResult(result, serverMeta),
    implementation: (info) => implementationForRevision(info, FEATURES),
    serverCapabilities: (capabilities: ServerCapabilities) =>
      serverCapabilitiesForRevision(capabilities, FEATURES),
    complete: <T extends object>(result: T, hints?: CacheHints): T => {
      const out = result as JsonObject;
      out['resultType'] = 'complete';
      if (hints !== undefined) {
        out['ttlMs'] = hints.ttlMs;
        out['cacheScope'] = hints.cacheScope;
      }
      const meta = withServerMeta(out['_meta'] as JsonObject | undefined, serverMeta);
      if (meta !== undefined) out['_meta'] = meta;
      return result;
    },
  } satisfies RevisionProfile);
}

const UNBOUND = profileOf(undefined);

/** The profile of a 2026 revision (no server identity in its envelope); undefined for anything else. */
export function profile2026(revision: unknown): RevisionProfile | undefined {
  return revision === REVISION ? UNBOUND : undefined;
}

/** The 2026 profile of one server: its identity goes out in the `_meta` of every result. */
export function serverProfile2026(serverInfo: Implementation): RevisionProfile {
  return profileOf(serverInfo);
}

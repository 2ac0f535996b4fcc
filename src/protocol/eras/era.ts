/**
 * @module The era seam (STYLE.md §3). An era object is chosen once, by the front that receives
 * the opening message (see classify.ts), and everything behind the front asks it, or the revision
 * profile it hands out, instead of asking which revision or era it is in. The 2025 era lives in
 * `rev2025/`; the 2026 era will be a second implementation of the same interface.
 */
import type { MethodRegistry } from '../methods/registry.js';
import type { CallToolResult, Implementation, ServerCapabilities, Tool } from '../types.js';
import type { Revision, RevisionFeatures } from '../versions.js';
import type { EraName } from './eraName.js';

/** The shape of a tool's output schema, as projections need it. */
export interface OutputShape {
  /** The schema's root describes an object (`type: "object"`). */
  readonly objectRoot: boolean;
}

/** How long, and for whom, a client may cache a result (2026-07-28, server/utilities/caching). */
export interface CacheHints {
  /** Milliseconds the result stays fresh; 0 is stale at once. */
  readonly ttlMs: number;
  /** `public`: the same for every caller; `private`: only for the authorization that asked. */
  readonly cacheScope: 'public' | 'private';
}

/**
 * What one revision allows on the wire and how a message is cut down to it. One object per
 * revision, built once: reading it on the hot path costs a property read, no allocation.
 */
export interface RevisionProfile {
  /** The revision, e.g. as negotiated by `initialize`. */
  readonly revision: Revision;
  /** What the revision allows (the feature table of `protocol/versions.ts`). */
  readonly features: RevisionFeatures;
  /** A tool definition as a peer of this revision may see it. */
  tool(tool: Tool): Tool;
  /**
   * A tool result as a peer of this revision may see it. `output` says whether the tool's output
   * schema has an object root (2025-era peers receive any other value as `{ result: … }`, as the
   * tool's schema is wrapped for them); without it, whether the value is an object decides.
   */
  callToolResult(result: CallToolResult, output?: OutputShape): CallToolResult;
  /** Implementation info (serverInfo) as this revision defines it. */
  implementation(info: Implementation): Implementation;
  /** Server capabilities as this revision defines them. */
  serverCapabilities(capabilities: ServerCapabilities): ServerCapabilities;
  /**
   * Adds the envelope every complete result of the revision carries to `result`, a fresh object
   * the caller owns: nothing in 2025; in 2026 `resultType`, the server's identity in `_meta` (when
   * the profile is bound to a server) and, for a cacheable result, the cache hints.
   */
  complete<T extends object>(result: T, hints?: CacheHints): T;
}

/** One protocol era: its methods, its revisions and their profiles. */
export interface Era {
  readonly name: EraName;
  /** The era's method table: a method it lacks is -32601 by absence. */
  readonly methods: MethodRegistry;
  /** The revisions of the era, oldest first. */
  readonly revisions: readonly Revision[];
  /** The profile of one of the era's revisions; undefined for any other value. */
  profile(revision: unknown): RevisionProfile | undefined;
}

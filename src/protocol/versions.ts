/**
 * @module The protocol revisions toolwire speaks and what each one allows. Every per-revision
 * decision (what a message may carry, how an error is reported) reads this table.
 */

/** The revisions toolwire implements, oldest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  '2024-11-05',
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
] as const;

/** One supported revision. */
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/** The newest revision: offered by clients, and by servers when the client's is unknown. */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';

/**
 * The stateless revisions (2026-07-28: no `initialize`, no sessions, `_meta` on every request).
 * toolwire's client speaks them for tools when asked to (`protocolEra`); its server does not yet.
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** One stateless revision. */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** Any revision toolwire knows: the handshake ones and the stateless ones. */
export type Revision = ProtocolVersion | ModernProtocolVersion;

/** True for a stateless revision. */
export function isModernVersion(value: unknown): value is ModernProtocolVersion {
  return (MODERN_PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

/** True when `value` is a revision toolwire implements. */
export function isSupportedVersion(value: unknown): value is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

/** What one revision allows on the wire. */
export interface RevisionFeatures {
  /** JSON-RPC batches may be received (2025-03-26 only). */
  readonly batches: boolean;
  /** `Tool.annotations` (2025-03-26+). */
  readonly toolAnnotations: boolean;
  /** The `completions` server capability (2025-03-26+). */
  readonly completions: boolean;
  /** Audio content blocks (2025-03-26+). */
  readonly audioContent: boolean;
  /** `message` on progress notifications (2025-03-26+). */
  readonly progressMessage: boolean;
  /** `title` on tools, implementations and resources (2025-06-18+). */
  readonly titles: boolean;
  /** `outputSchema` and `structuredContent` (2025-06-18+). */
  readonly structuredOutput: boolean;
  /** `resource_link` content blocks (2025-06-18+). */
  readonly resourceLinks: boolean;
  /** `_meta` on tools, content blocks and resource contents (2025-06-18+). */
  readonly contentMeta: boolean;
  /** `lastModified` in content annotations (2025-06-18+). */
  readonly lastModified: boolean;
  /** Elicitation requests to the client (2025-06-18+). */
  readonly elicitation: boolean;
  /** `icons` on tools, resource links and implementations (2025-11-25). */
  readonly icons: boolean;
  /** `Tool.execution` and the tasks utility (2025-11-25). */
  readonly tasks: boolean;
  /** `description` and `websiteUrl` on implementations (2025-11-25). */
  readonly implementationDetails: boolean;
  /** Arguments that fail the input schema are an `isError` result, not -32602 (2025-11-25). */
  readonly inputErrorsAsResults: boolean;
  /** An error whose request id cannot be read omits `id` instead of sending null (2025-11-25). */
  readonly omitUnreadableErrorId: boolean;
  /** `tools`/`toolChoice` in sampling requests (2025-11-25). */
  readonly samplingTools: boolean;
  /** Elicitation `mode` (form or URL) and URL-mode elicitation (2025-11-25). */
  readonly elicitationModes: boolean;
  /**
   * JSON Schema 2020-12 is the default dialect and `$schema` may name one (2025-11-25, SEP-1613).
   * Earlier peers receive tool schemas without `$schema`.
   */
  readonly schemaDialects: boolean;
  /**
   * The stateless lifecycle (2026-07-28): `server/discover` instead of `initialize`, the
   * revision and client capabilities in every request's `_meta`, `resultType` on every result,
   * `structuredContent` of any JSON type, no tasks utility, no requests from the server.
   */
  readonly stateless: boolean;
  /**
   * Output schemas of any root and `structuredContent` of any JSON value (2026-07-28, SEP-2106);
   * earlier peers receive them wrapped as `{ result: … }`.
   */
  readonly anyStructuredContent: boolean;
}

const FEATURES: Record<Revision, RevisionFeatures> = {
  '2024-11-05': {
    batches: false,
    toolAnnotations: false,
    completions: false,
    audioContent: false,
    progressMessage: false,
    titles: false,
    structuredOutput: false,
    resourceLinks: false,
    contentMeta: false,
    lastModified: false,
    elicitation: false,
    icons: false,
    tasks: false,
    implementationDetails: false,
    inputErrorsAsResults: false,
    omitUnreadableErrorId: false,
    samplingTools: false,
    elicitationModes: false,
    schemaDialects: false,
    stateless: false,
    anyStructuredContent: false,
  },
  '2025-03-26': {
    batches: true,
    toolAnnotations: true,
    completions: true,
    audioContent: true,
    progressMessage: true,
    titles: false,
    structuredOutput: false,
    resourceLinks: false,
    contentMeta: false,
    lastModified: false,
    elicitation: false,
    icons: false,
    tasks: false,
    implementationDetails: false,
    inputErrorsAsResults: false,
    omitUnreadableErrorId: false,
    samplingTools: false,
    elicitationModes: false,
    schemaDialects: false,
    stateless: false,
    anyStructuredContent: false,
  },
  '2025-06-18': {
    batches: false,
    toolAnnotations: true,
    completions: true,
    audioContent: true,
    progressMessage: true,
    titles: true,
    structuredOutput: true,
    resourceLinks: true,
    contentMeta: true,
    lastModified: true,
    elicitation: true,
    icons: false,
    tasks: false,
    implementationDetails: false,
    inputErrorsAsResults: false,
    omitUnreadableErrorId: false,
    samplingTools: false,
    elicitationModes: false,
    schemaDialects: false,
    stateless: false,
    anyStructuredContent: false,
  },
  '2025-11-25': {
    batches: false,
    toolAnnotations: true,
    completions: true,
    audioContent: true,
    progressMessage: true,
    titles: true,
    structuredOutput: true,
    resourceLinks: true,
    contentMeta: true,
    lastModified: true,
    elicitation: true,
    icons: true,
    tasks: true,
    implementationDetails: true,
    inputErrorsAsResults: true,
    omitUnreadableErrorId: true,
    samplingTools: true,
    elicitationModes: true,
    schemaDialects: true,
    stateless: false,
    anyStructuredContent: false,
  },
  '2026-07-28': {
    batches: false,
    toolAnnotations: true,
    completions: true,
    audioContent: true,
    progressMessage: true,
    titles: true,
    structuredOutput: true,
    resourceLinks: true,
    contentMeta: true,
    lastModified: true,
    elicitation: true,
    icons: true,
    tasks: false,
    implementationDetails: true,
    inputErrorsAsResults: true,
    omitUnreadableErrorId: true,
    samplingTools: true,
    elicitationModes: true,
    schemaDialects: true,
    stateless: true,
    anyStructuredContent: true,
  },
};

/** The feature table of one revision. */
export function featuresOf(version: Revision): RevisionFeatures {
  return FEATURES[version];
}

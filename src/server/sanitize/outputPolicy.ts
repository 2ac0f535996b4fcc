/**
 * @module The options of the output-sanitising stage (`ServerOptions.sanitize`, a tool's own
 * `sanitize`), their defaults, and their compilation into the {@link OutputPolicy} the stage
 * runs with. Options are checked once, when the server or tool is created; a wrong one throws a
 * TypeError naming it.
 */
import { compileRedactions, type CompiledRedaction, type Redaction } from './redaction.js';
import { BIDI, CONTROLS, TAGS, ZERO_WIDTH, type TextRules } from './textControls.js';
import { schemeEntryProblem, type UriCheck } from './uriSchemes.js';

/** What happens to a content block whose URI is refused. */
export type RefusedUriAction = 'withhold' | 'drop' | 'error';

/**
 * How tool results are sanitised before they are sent. Every field has a default; `false` for
 * the whole option turns the stage off (the result-size limit, `maxResultBytes`, still applies).
 */
export interface SanitizeOptions {
  /**
   * Remove terminal control and escape sequences from output strings: whole ESC and C1
   * sequences (CSI, OSC including OSC 8 hyperlinks, DCS, SOS, PM, APC, others), C0 controls but
   * tab and newline, DEL, C1; a lone carriage return becomes a newline (CRLF stays). Default true.
   */
  controls?: boolean;
  /** Remove bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). Default true. */
  bidi?: boolean;
  /** Remove the invisible Unicode tag characters U+E0000–U+E007F. Default true. */
  tags?: boolean;
  /**
   * Remove zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF). Default false: the
   * zero-width joiners are part of emoji sequences and of several scripts.
   */
  zeroWidth?: boolean;
  /** Also sanitise the strings and keys of `structuredContent`. Default true. */
  structuredContent?: boolean;
  /**
   * URI schemes `resource_link.uri` and embedded `resource.uri` may have (case-insensitive), or
   * a function deciding. Default {@link DEFAULT_URI_SCHEMES}. `javascript:`, `vbscript:` and
   * script-capable `data:` URIs are refused in any case; `false` turns the check off.
   */
  uriSchemes?: readonly string[] | UriCheck | false;
  /**
   * A block whose URI is refused is replaced by a text block saying it was withheld and why
   * (`'withhold'`, default), left out (`'drop'`), or the whole result becomes an `isError`
   * result (`'error'`).
   */
  refusedUri?: RefusedUriAction;
  /**
   * Secrets to redact from output strings, applied in order after control sequences are
   * removed. Default: none. {@link COMMON_SECRET_PATTERNS} is a ready-made list.
   */
  redact?: readonly Redaction[] | false;
}

/** The default of `uriSchemes`: the spec's common schemes, plain http, and URNs. */
export const DEFAULT_URI_SCHEMES: readonly string[] = Object.freeze([
  'https',
  'http',
  'file',
  'git',
  'urn',
]);

/** Every option with its value decided. */
interface ResolvedOptions {
  readonly controls: boolean;
  readonly bidi: boolean;
  readonly tags: boolean;
  readonly zeroWidth: boolean;
  readonly structuredContent: boolean;
  readonly uriSchemes: readonly string[] | UriCheck | false;
  readonly refusedUri: RefusedUriAction;
  readonly redact: readonly Redaction[] | false;
}

const DEFAULTS: ResolvedOptions = {
  controls: true,
  bidi: true,
  tags: true,
  zeroWidth: false,
  structuredContent: true,
  uriSchemes: DEFAULT_URI_SCHEMES,
  refusedUri: 'withhold',
  redact: false,
};

/** Sanitising options compiled for use on every result (see {@link compileOutputPolicy}). */
export interface OutputPolicy {
  /** False when the policy never changes anything: the stage returns results untouched. */
  readonly active: boolean;
  /** Which character families are removed from strings (a mask; 0 for none). */
  readonly text: TextRules;
  readonly structuredContent: boolean;
  /** Allowed URI schemes (lower-case) or a check; undefined when URIs are not checked. */
  readonly uris: readonly string[] | UriCheck | undefined;
  readonly refusedUri: RefusedUriAction;
  readonly redactions: readonly CompiledRedaction[];
  /** The options compiled, for a tool's override to start from; undefined for `false`. */
  readonly resolved: ResolvedOptions | undefined;
}

function compile(resolved: ResolvedOptions | undefined): OutputPolicy {
  const o = resolved ?? { ...DEFAULTS, controls: false, bidi: false, tags: false };
  const text =
    (o.controls ? CONTROLS : 0) |
    (o.bidi ? BIDI : 0) |
    (o.tags ? TAGS : 0) |
    (o.zeroWidth ? ZERO_WIDTH : 0);
  const uris =
    resolved === undefined || o.uriSchemes === false
      ? undefined
      : typeof o.uriSchemes === 'function'
        ? o.uriSchemes
        : Object.freeze(o.uriSchemes.map((s) => s.toLowerCase().replace(/:$/, '')));
  const redactions = o.redact === false ? [] : compileRedactions(o.redact, 'sanitize.redact');
  return {
    active: text !== 0 || uris !== undefined || redactions.length > 0,
    text,
    structuredContent: o.structuredContent,
    uris,
    refusedUri: o.refusedUri,
    redactions,
    resolved,
  };
}

/** The stage turned off (`sanitize: false`). */
export const OUTPUT_POLICY_OFF: OutputPolicy = Object.freeze(compile(undefined));

/** The defaults (no `sanitize` option). */
export const DEFAULT_OUTPUT_POLICY: OutputPolicy = Object.freeze(compile(DEFAULTS));

const BOOLEAN_KEYS = ['controls', 'bidi', 'tags', 'zeroWidth', 'structuredContent'] as const;
const KNOWN_KEYS = new Set<string>([...BOOLEAN_KEYS, 'uriSchemes', 'refusedUri', 'redact']);

function checkOptions(options: SanitizeOptions): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError('sanitize must be an options object or false');
  for (const key of Object.keys(options))
    if (!KNOWN_KEYS.has(key)) throw new TypeError(`sanitize.${key} is not an option`);
  for (const key of BOOLEAN_KEYS) {
    const value = options[key];
    if (value !== undefined && typeof value !== 'boolean')
      throw new TypeError(`sanitize.${key} must be a boolean`);
  }
  const schemes = options.uriSchemes;
  if (Array.isArray(schemes)) {
    for (const entry of schemes as unknown[]) {
      const scheme = typeof entry === 'string' ? entry.toLowerCase().replace(/:$/, '') : '';
      const problem = schemeEntryProblem(scheme);
      if (problem) throw new TypeError(`sanitize.uriSchemes: ${problem}`);
    }
  } else if (schemes !== undefined && schemes !== false && typeof schemes !== 'function') {
    throw new TypeError('sanitize.uriSchemes must be an array of schemes, a function or false');
  }
  const action = options.refusedUri;
  if (action !== undefined && action !== 'withhold' && action !== 'drop' && action !== 'error')
    throw new TypeError('sanitize.refusedUri must be "withhold", "drop" or "error"');
}

/**
 * Compiles sanitising options. `undefined` gives `base` (default: the defaults); `false` turns
 * the stage off; an object overrides `base`'s options field by field, or the defaults when
 * `base` is off or absent (so a tool's `sanitize: {}` under a server's `sanitize: false` gets
 * the defaults). A tool's `redact` replaces the server's; spread both to combine them.
 */
export function compileOutputPolicy(
  options: SanitizeOptions | false | undefined,
  base?: OutputPolicy,
): OutputPolicy {
  if (options === undefined) return base ?? DEFAULT_OUTPUT_POLICY;
  if (options === false) return OUTPUT_POLICY_OFF;
  checkOptions(options);
  const from = base?.resolved ?? DEFAULTS;
  const resolved: ResolvedOptions = {
    controls: options.controls ?? from.controls,
    bidi: options.bidi ?? from.bidi,
    tags: options.tags ?? from.tags,
    zeroWidth: options.zeroWidth ?? from.zeroWidth,
    structuredContent: options.structuredContent ?? from.structuredContent,
    uriSchemes: options.uriSchemes ?? from.uriSchemes,
    refusedUri: options.refusedUri ?? from.refusedUri,
    redact: options.redact ?? from.redact,
  };
  return Object.freeze(compile(resolved));
}

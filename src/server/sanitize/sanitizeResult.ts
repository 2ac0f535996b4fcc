/**
 * @module The output-sanitising stage of `tools/call`: a tool result's strings lose terminal
 * control sequences and the other characters the {@link OutputPolicy} removes, then secrets are
 * redacted; blocks whose URI is refused are withheld. Which strings: text blocks' `text`;
 * resource links' `name`, `title`, `description` and `mimeType`; embedded resources' `text` and
 * `mimeType`; image and audio `mimeType`; every block's `annotations.lastModified`; every string
 * value of `structuredContent`, and its keys. Keys, MIME types and dates lose control characters
 * but are not redacted. `_meta`, the rest of the annotations, base64 data and URIs are never
 * rewritten (URIs are checked, not changed).
 *
 * The result of a clean call is returned as the same object after one scan that allocates
 * nothing; otherwise a copy is made of what changed only, and the input is never modified.
 */
import type { CallToolResult, ContentBlock, Icon, TextContent } from '../../protocol/types.js';
import type { OutputPolicy } from './outputPolicy.js';
import { needsRedaction, redact } from './redaction.js';
import { toolError } from '../results.js';
import { BIDI, CONTROLS, hasUnsafe, stripText, TAGS } from './textControls.js';
import { iconSrcProblem, uriProblem } from './uriSchemes.js';

/** One change the stage made to a result. */
export interface SanitizeFinding {
  /**
   * `stripped`: control or invisible characters removed from a string or key; `redacted`: a
   * secret replaced; `uri`: a block withheld (or dropped) for its URI; `icon`: an icon left out
   * of a resource link for its `src`.
   */
  readonly kind: 'stripped' | 'redacted' | 'uri' | 'icon';
  /** JSON Pointer of what changed in the result, e.g. `/content/0/text`, `/structuredContent/a`. */
  readonly path: string;
  /** `redacted`: the rules that matched; `uri`, `icon`: why it was refused. */
  readonly detail?: string;
}

function textClean(value: unknown, policy: OutputPolicy): boolean {
  if (typeof value !== 'string') return true;
  if (hasUnsafe(value, policy.text)) return false;
  return policy.redactions.length === 0 || !needsRedaction(value, policy.redactions);
}

function labelClean(value: unknown, policy: OutputPolicy): boolean {
  return typeof value !== 'string' || !hasUnsafe(value, policy.text);
}

function uriRefusal(uri: unknown, policy: OutputPolicy): string | undefined {
  if (policy.uris === undefined) return undefined;
  return typeof uri === 'string' ? uriProblem(uri, policy.uris) : 'the URI is not a string';
}

function iconRefusal(icon: unknown): string | undefined {
  const src = typeof icon === 'object' && icon !== null ? (icon as Icon).src : undefined;
  return typeof src === 'string' ? iconSrcProblem(src) : 'the icon has no string src';
}

function iconsClean(icons: unknown, policy: OutputPolicy): boolean {
  if (policy.uris === undefined || !Array.isArray(icons)) return true;
  for (let i = 0; i < icons.length; i++) if (iconRefusal(icons[i]) !== undefined) return false;
  return true;
}

/**
 * Annotations are data for the client, not text, except `lastModified`: the date check lets a
 * parenthesised comment through (`Date.parse('Jan 1 2025 (…)')`), so it is a string like others.
 */
function annotationsClean(block: ContentBlock, policy: OutputPolicy): boolean {
  return block.annotations === undefined || labelClean(block.annotations.lastModified, policy);
}

/** Whether the stage leaves `block` as it is. Allocates nothing. */
function blockClean(block: ContentBlock, policy: OutputPolicy): boolean {
  if (!annotationsClean(block, policy)) return false;
  switch (block.type) {
    case 'text':
      return textClean(block.text, policy);
    case 'image':
    case 'audio':
      return labelClean(block.mimeType, policy);
    case 'resource_link':
      return (
        uriRefusal(block.uri, policy) === undefined &&
        textClean(block.name, policy) &&
        textClean(block.title, policy) &&
        textClean(block.description, policy) &&
        labelClean(block.mimeType, policy) &&
        iconsClean(block.icons, policy)
      );
    case 'resource': {
      const r = block.resource as { uri?: unknown; mimeType?: unknown; text?: unknown };
      return (
        uriRefusal(r.uri, policy) === undefined &&
        labelClean(r.mimeType, policy) &&
        textClean(r.text, policy)
      );
    }
    default:
      return true; // a type the protocol does not define: the result checks refuse it earlier
  }
}

/** Whether the stage leaves a structured value as it is. Allocates nothing. */
function valueClean(value: unknown, policy: OutputPolicy): boolean {
  if (typeof value === 'string') return textClean(value, policy);
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!valueClean(value[i], policy)) return false;
    return true;
  }
  // for-in, not Object.keys: no array is allocated.
  for (const key in value) {
    if (!labelClean(key, policy)) return false;
    if (!valueClean((value as Record<string, unknown>)[key], policy)) return false;
  }
  return true;
}

function resultClean(result: CallToolResult, policy: OutputPolicy): boolean {
  const content = result.content;
  for (let i = 0; i < content.length; i++)
    if (!blockClean(content[i] as ContentBlock, policy)) return false;
  const structured = result.structuredContent;
  return structured === undefined || !policy.structuredContent || valueClean(structured, policy);
}

/** A JSON Pointer one level down; keys lose control characters, since reports reach terminals. */
function pointer(path: string, key: string | number): string {
  const safe = typeof key === 'number' ? String(key) : stripText(key, CONTROLS | BIDI | TAGS);
  return `${path}/${safe.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Sets an own property, also for a key such as `__proto__` that assignment would not create. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const BLOCK_NAMES = { resource_link: 'Resource link', resource: 'Embedded resource' } as const;

/** The copy-on-change half of the stage, run only on a result that is not clean. */
class Rewriter {
  constructor(
    private readonly policy: OutputPolicy,
    private readonly findings: SanitizeFinding[] | undefined,
  ) {}

  /** A string as it is sent; `redactable` is false for keys and MIME types. */
  string(value: string, path: string, redactable: boolean): string {
    const { policy } = this;
    let out = value;
    if (hasUnsafe(out, policy.text)) {
      out = stripText(out, policy.text);
      this.findings?.push({ kind: 'stripped', path });
    }
    if (redactable && policy.redactions.length > 0) {
      const done = redact(out, policy.redactions);
      if (done.labels.length > 0) {
        // A redacting function may return anything: what it returns is held to the same rules.
        out = stripText(done.text, policy.text);
        this.findings?.push({ kind: 'redacted', path, detail: done.labels.join(', ') });
      }
    }
    return out;
  }

  /** Rewrites the string fields named in `fields` of `source` into a copy, if any changes. */
  fields<T extends object>(source: T, path: string, fields: Record<string, boolean>): T {
    let copy: T | undefined;
    for (const name in fields) {
      const value = (source as Record<string, unknown>)[name];
      if (typeof value !== 'string') continue;
      const out = this.string(value, pointer(path, name), fields[name] === true);
      if (out === value) continue;
      copy ??= { ...source };
      (copy as Record<string, unknown>)[name] = out;
    }
    return copy ?? source;
  }

  icons(icons: unknown, path: string): unknown {
    if (this.policy.uris === undefined || !Array.isArray(icons)) return icons;
    const kept = icons.filter((icon: unknown, i) => {
      const reason = iconRefusal(icon);
      if (reason !== undefined)
        this.findings?.push({ kind: 'icon', path: pointer(path, i), detail: reason });
      return reason === undefined;
    });
    return kept.length === icons.length ? icons : kept;
  }

  block(block: ContentBlock, path: string): ContentBlock {
    const out = this.content(block, path);
    const a = block.annotations;
    if (a === undefined || typeof a.lastModified !== 'string') return out;
    const at = pointer(pointer(path, 'annotations'), 'lastModified');
    const lastModified = this.string(a.lastModified, at, false);
    return lastModified === a.lastModified ? out : { ...out, annotations: { ...a, lastModified } };
  }

  content(block: ContentBlock, path: string): ContentBlock {
    switch (block.type) {
      case 'text':
        return this.fields(block, path, { text: true });
      case 'image':
      case 'audio':
        return this.fields(block, path, { mimeType: false });
      case 'resource_link': {
        const fields = { name: true, title: true, description: true, mimeType: false };
        const out = this.fields(block, path, fields);
        const icons = this.icons(block.icons, pointer(path, 'icons'));
        if (icons === block.icons) return out;
        const copy = out === block ? { ...block } : out;
        if (Array.isArray(icons) && icons.length > 0) copy.icons = icons as Icon[];
        else delete copy.icons;
        return copy;
      }
      case 'resource': {
        const fields = { text: true, mimeType: false };
        const resource = this.fields(block.resource, pointer(path, 'resource'), fields);
        return resource === block.resource ? block : { ...block, resource };
      }
      default:
        return block;
    }
  }

  value(value: unknown, path: string): unknown {
    if (typeof value === 'string') return this.string(value, path, true);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const out = this.value(value[i], pointer(path, i));
        if (out !== value[i]) (copy ??= value.slice())[i] = out;
      }
      return copy ?? value;
    }
    const source = value as Record<string, unknown>;
    const keys = Object.keys(source);
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const at = pointer(path, key);
      const newKey = this.string(key, at, false);
      const newValue = this.value(source[key], at);
      if (out === undefined && (newKey !== key || newValue !== source[key])) {
        out = {};
        for (let j = 0; j < i; j++) setOwn(out, keys[j] as string, source[keys[j] as string]);
      }
      // A key that becomes equal to an earlier one replaces it, as a duplicate key in JSON does.
      if (out !== undefined) setOwn(out, newKey, newValue);
    }
    return out ?? value;
  }

  /** Why `block` is refused for its URI, or undefined. */
  refusal(block: ContentBlock): string | undefined {
    if (block.type === 'resource_link') return uriRefusal(block.uri, this.policy);
    if (block.type === 'resource')
      return uriRefusal((block.resource as { uri?: unknown }).uri, this.policy);
    return undefined;
  }

  result(result: CallToolResult): CallToolResult {
    const content: ContentBlock[] = [];
    let changed = false;
    for (let i = 0; i < result.content.length; i++) {
      const block = result.content[i] as ContentBlock;
      const path = `/content/${i}`;
      const reason = this.refusal(block);
      if (reason === undefined) {
        const out = this.block(block, path);
        changed ||= out !== block;
        content.push(out);
        continue;
      }
      changed = true;
      const what = BLOCK_NAMES[block.type as keyof typeof BLOCK_NAMES];
      this.findings?.push({ kind: 'uri', path, detail: `${what}: ${reason}` });
      if (this.policy.refusedUri === 'error')
        return toolError(
          `The tool's result was withheld by the server's output policy: content[${i}] is a ${what.toLowerCase()} whose URI was refused (${reason})`,
        );
      if (this.policy.refusedUri === 'drop') continue;
      const withheld: TextContent = {
        type: 'text',
        text: `${what} withheld by the server's output policy: ${reason}.`,
      };
      if (block.annotations !== undefined) withheld.annotations = block.annotations;
      content.push(this.block(withheld, path));
    }
    const out: CallToolResult = { ...result, content: changed ? content : result.content };
    if (result.structuredContent !== undefined && this.policy.structuredContent) {
      const structured = this.value(result.structuredContent, '/structuredContent');
      out.structuredContent = structured;
    }
    return out;
  }
}

/**
 * `result` as the policy lets it be sent: the same object when nothing needs to change (found
 * by one scan that allocates nothing), else a copy of what changed; `result` itself is never
 * modified. Each change is pushed to `findings` when given. A refused URI with
 * `refusedUri: 'error'` gives an `isError` result instead. Throws only when a redacting
 * function throws or returns something other than a string.
 */
export function sanitizeCallResult(
  result: CallToolResult,
  policy: OutputPolicy,
  findings?: SanitizeFinding[],
): CallToolResult {
  if (!policy.active || resultClean(result, policy)) return result;
  return new Rewriter(policy, findings).result(result);
}

/**
 * One string (a progress message, a log line) as the policy lets it be sent: control sequences
 * removed, then secrets redacted. The same string when nothing changes.
 */
export function sanitizeText(text: string, policy: OutputPolicy): string {
  if (!policy.active || textClean(text, policy)) return text;
  return new Rewriter(policy, undefined).string(text, '', true);
}

/** How many findings a report lists before it says how many more there were. */
const LISTED = 8;

/**
 * One line summing up the findings worth an operator's attention (withheld blocks and icons,
 * redactions), or undefined when there are none: removed control characters are routine for
 * tools that wrap command-line programs, and are not reported.
 */
export function describeFindings(findings: readonly SanitizeFinding[]): string | undefined {
  const notable = findings.filter((f) => f.kind !== 'stripped');
  if (notable.length === 0) return undefined;
  const verbs = { uri: 'withheld', icon: 'left out the icon', redacted: 'redacted' } as const;
  const parts = notable
    .slice(0, LISTED)
    .map((f) => `${verbs[f.kind as keyof typeof verbs]} ${f.path} (${f.detail ?? ''})`);
  if (notable.length > LISTED) parts.push(`and ${notable.length - LISTED} more`);
  return parts.join('; ');
}

/** What the stage needs of the call it runs in (a `CallPlan` has it). */
export interface SanitizeTarget {
  readonly deps: { report(error: unknown, what: string): void };
  readonly entry: { readonly name: string };
}

/**
 * The sanitize stage of one call: {@link sanitizeCallResult}, then one report to the server's
 * `onerror` when a block was withheld or a secret redacted. Allocates nothing for a clean result.
 */
export function sanitizeStage(
  call: SanitizeTarget,
  result: CallToolResult,
  policy: OutputPolicy,
): CallToolResult {
  if (!policy.active || resultClean(result, policy)) return result;
  const findings: SanitizeFinding[] = [];
  const out = new Rewriter(policy, findings).result(result);
  const summary = describeFindings(findings);
  if (summary !== undefined)
    call.deps.report(new Error(summary), `tool "${call.entry.name}" output was sanitised`);
  return out;
}

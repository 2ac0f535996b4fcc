/**
 * @module Redacting secrets from a tool's output strings by pattern or by function. A rule is
 * compiled once (a global copy of its pattern to replace every match, a non-global one to test);
 * a string is tested with each rule and copied only when one matches. Patterns are matched in
 * the string and in its {@link matchingCopy} (invisible characters removed, NFKC), so that
 * `AKIA\u200b…` or fullwidth letters do not hide a secret: a match in the copy redacts the span
 * of the original it came from, invisible characters inside it included.
 */
import { matchingCopy, type MatchingCopy } from './matchingCopy.js';
import { CONTROLS, BIDI, TAGS, hasUnsafe } from './textControls.js';

/** A pattern to redact, with what replaces each match (default `[REDACTED]`). */
export interface RedactionRule {
  /** Every match is replaced (a pattern without the `g` flag is used as if it had it). */
  pattern: RegExp;
  /**
   * What replaces a match, as in `String.prototype.replace` (`$1`, `$&` work). Default
   * `[REDACTED]`. Must not itself contain control characters.
   */
  replacement?: string;
  /** Names the rule in reports to the server's `onerror` (default: the pattern's source). */
  name?: string;
}

/**
 * A redacting function: returns `text` itself when there is nothing to redact, else the text to
 * send instead. Runs on every covered string of every result, so keep it cheap.
 */
export type RedactFunction = (text: string) => string;

/** One entry of the `redact` option: a pattern (replaced by `[REDACTED]`), a rule or a function. */
export type Redaction = RegExp | RedactionRule | RedactFunction;

/** A redaction ready to run. */
export interface CompiledRedaction {
  readonly label: string;
  /** Tests for a match: neither global nor sticky, so it keeps no state between calls. */
  readonly test: RegExp | undefined;
  /** Replaces every match. */
  readonly all: RegExp | undefined;
  readonly replacement: string;
  readonly run: RedactFunction | undefined;
}

/** The default replacement of a match. */
export const REDACTED = '[REDACTED]';

function compileRule(rule: RedactionRule, where: string): CompiledRedaction {
  if (!(rule.pattern instanceof RegExp)) throw new TypeError(`${where}.pattern must be a RegExp`);
  const flags = rule.pattern.flags.replace(/[gy]/g, '');
  const test = new RegExp(rule.pattern.source, flags);
  if (test.test('')) throw new TypeError(`${where} must not match the empty string`);
  const replacement = rule.replacement ?? REDACTED;
  if (typeof replacement !== 'string') throw new TypeError(`${where}.replacement must be a string`);
  if (hasUnsafe(replacement, CONTROLS | BIDI | TAGS))
    throw new TypeError(`${where}.replacement must not contain control characters`);
  if (rule.name !== undefined && typeof rule.name !== 'string')
    throw new TypeError(`${where}.name must be a string`);
  return {
    label: rule.name ?? String(rule.pattern).slice(0, 80),
    test,
    all: new RegExp(rule.pattern.source, `${flags}g`),
    replacement,
    run: undefined,
  };
}

/** Compiles the `redact` option; throws a TypeError naming the entry that is wrong. */
export function compileRedactions(entries: unknown, where: string): readonly CompiledRedaction[] {
  if (!Array.isArray(entries)) throw new TypeError(`${where} must be an array or false`);
  return entries.map((entry: unknown, i): CompiledRedaction => {
    const at = `${where}[${i}]`;
    if (typeof entry === 'function') {
      const run = entry as RedactFunction;
      return {
        label: run.name || 'function',
        test: undefined,
        all: undefined,
        replacement: '',
        run,
      };
    }
    if (entry instanceof RegExp) return compileRule({ pattern: entry }, at);
    if (typeof entry === 'object' && entry !== null && 'pattern' in entry)
      return compileRule(entry as RedactionRule, at);
    throw new TypeError(
      `${at} must be a RegExp, a { pattern, replacement?, name? } rule or a function`,
    );
  });
}

function runFunction(redaction: CompiledRedaction, run: RedactFunction, text: string): string {
  const out = run(text);
  if (typeof out !== 'string')
    throw new TypeError(`The redact function "${redaction.label}" did not return a string`);
  return out;
}

/**
 * Whether any redaction would change `text`. Allocates nothing for patterns on text that is its
 * own matching copy (ASCII, most of all).
 */
export function needsRedaction(text: string, redactions: readonly CompiledRedaction[]): boolean {
  let copy: MatchingCopy | undefined | null = null; // null: not made yet
  for (let i = 0; i < redactions.length; i++) {
    const r = redactions[i] as CompiledRedaction;
    if (r.run) {
      if (runFunction(r, r.run, text) !== text) return true;
      continue;
    }
    if (r.test === undefined) continue;
    if (r.test.test(text)) return true;
    if (copy === null) copy = matchingCopy(text);
    if (copy !== undefined && r.test.test(copy.text)) return true;
  }
  return false;
}

/**
 * What `replacement` gives for `match` of `subject`, as `String.prototype.replace` would: `$$`,
 * `$&`, `` $` ``, `$'`, `$1`…`$99` and `$<name>` are expanded, anything else is kept.
 */
function expand(replacement: string, match: RegExpExecArray, subject: string): string {
  if (!replacement.includes('$')) return replacement;
  const groups = match.length - 1;
  return replacement.replace(/\$(\$|&|`|'|\d{1,2}|<[^>]*>)/g, (whole, what: string) => {
    if (what === '$') return '$';
    if (what === '&') return match[0];
    if (what === '`') return subject.slice(0, match.index);
    if (what === "'") return subject.slice(match.index + match[0].length);
    if (what.startsWith('<')) {
      if (match.groups === undefined) return whole;
      return match.groups[what.slice(1, -1)] ?? '';
    }
    // Two digits name a group when there is one by that number, else the first digit does.
    let n = Number(what);
    let rest = '';
    if (what.length === 2 && (n < 1 || n > groups)) {
      n = Number(what[0]);
      rest = what.slice(1);
    }
    if (n < 1 || n > groups) return whole;
    return (match[n] ?? '') + rest;
  });
}

/**
 * `text` with the matches of `r` in its matching copy redacted: the span of the original each
 * came from is replaced. The same string when there are none.
 */
function redactInCopy(text: string, copy: MatchingCopy, r: CompiledRedaction): string {
  const all = r.all as RegExp;
  let out = '';
  let kept = 0; // text[kept…] is still to be copied
  let changed = false;
  for (const match of copy.text.matchAll(all)) {
    if (match[0] === '') continue;
    const [start, end] = copy.origin(match.index, match.index + match[0].length);
    // A character normalised into two matches is replaced by the first.
    if (end <= kept) continue;
    out += text.slice(kept, Math.max(start, kept)) + expand(r.replacement, match, copy.text);
    kept = end;
    changed = true;
  }
  return changed ? out + text.slice(kept) : text;
}

/** `text` with every redaction applied in order, and the labels of those that changed it. */
export function redact(
  text: string,
  redactions: readonly CompiledRedaction[],
): { text: string; labels: string[] } {
  let out = text;
  const labels: string[] = [];
  // The matching copy of `out`, made when first needed and again only once `out` changes.
  let copy: MatchingCopy | undefined;
  let copied = false;
  for (const r of redactions) {
    let next = out;
    if (r.run) next = runFunction(r, r.run, out);
    else if (r.test && r.all) {
      if (r.test.test(out)) {
        next = out.replace(r.all, r.replacement);
        copied = false;
      }
      // What is left hidden by invisible or look-alike characters.
      if (!copied) {
        copy = matchingCopy(next);
        copied = true;
      }
      if (copy !== undefined && r.test.test(copy.text)) {
        next = redactInCopy(next, copy, r);
        copied = false;
      }
    }
    if (next !== out) {
      labels.push(r.label);
      if (r.run) copied = false;
    }
    out = next;
  }
  return { text: out, labels };
}

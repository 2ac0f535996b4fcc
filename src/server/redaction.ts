/**
 * @module Redacting secrets from a tool's output strings by pattern or by function. A rule is
 * compiled once (a global copy of its pattern to replace every match, a non-global one to test);
 * a string is tested with each rule and copied only when one matches.
 */
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

/** Whether any redaction would change `text`. Allocates nothing for patterns. */
export function needsRedaction(text: string, redactions: readonly CompiledRedaction[]): boolean {
  for (let i = 0; i < redactions.length; i++) {
    const r = redactions[i] as CompiledRedaction;
    if (r.run ? runFunction(r, r.run, text) !== text : r.test?.test(text)) return true;
  }
  return false;
}

/** `text` with every redaction applied in order, and the labels of those that changed it. */
export function redact(
  text: string,
  redactions: readonly CompiledRedaction[],
): { text: string; labels: string[] } {
  let out = text;
  const labels: string[] = [];
  for (const r of redactions) {
    const next = r.run
      ? runFunction(r, r.run, out)
      : r.test && r.all && r.test.test(out)
        ? out.replace(r.all, r.replacement)
        : out;
    if (next !== out) labels.push(r.label);
    out = next;
  }
  return { text: out, labels };
}

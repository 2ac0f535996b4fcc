/**
 * @module What a person cannot see in a tool's text: characters that draw nothing (zero-width,
 * bidi and other format characters, variation selectors, tag characters, which can spell out a
 * whole hidden sentence), and names that look like another (fullwidth `ｒｅａｄ` beside `read`,
 * Cyrillic `а` for Latin `a`, `I` for `l`, case). Hosts show these findings beside the tool so a
 * server cannot pass one tool off as another or hide words in a description.
 */
import type { Tool } from '../../protocol/types.js';

/**
 * Characters that draw nothing or change how their neighbours draw: format characters (`Cf`:
 * zero-width, bidi controls, soft hyphen, tags, BOM) and the other default-ignorable code points
 * (variation selectors, Hangul fillers, Mongolian selectors).
 */
const INVISIBLE_SOURCE = '\\p{Cf}\\p{Default_Ignorable_Code_Point}';
const INVISIBLE = new RegExp(`[${INVISIBLE_SOURCE}]`, 'gu');
const ONE_INVISIBLE = new RegExp(`^[${INVISIBLE_SOURCE}]$`, 'u');

const SELECTOR = /^[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;

/** The code point before `index` in `text` (a surrogate pair read whole). */
function before(text: string, index: number): string {
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2
    ? text.slice(index - 2, index)
    : text.slice(Math.max(0, index - 1), index);
}

/** The code point at `index` in `text`. */
const at = (text: string, index: number): string =>
  String.fromCodePoint(text.codePointAt(index) ?? 0);

const LETTER = /^[\p{L}\p{M}]$/u;

/**
 * Whether the invisible `char` at `index` of `text` is part of how text is written, and so hides
 * nothing: one presentation selector (U+FE0E, U+FE0F) right after a visible character, a
 * zero-width joiner between two pictographs (👨‍👩‍👧), a zero-width non-joiner or joiner between
 * two letters beyond ASCII (Persian spelling, Indic conjuncts), the directional marks that
 * right-to-left text needs (U+200E, U+200F, U+061C; unlike overrides they reorder nothing).
 * Runs of selectors, which can carry hidden bytes, are not.
 */
function partOfWriting(text: string, index: number, char: string): boolean {
  if (char === '\u200e' || char === '\u200f' || char === '\u061c') return true;
  const next = text.length > index + 1 ? at(text, index + 1) : '';
  if (char === '\ufe0e' || char === '\ufe0f') {
    const previous = before(text, index);
    return (
      previous !== '' &&
      !SELECTOR.test(previous) &&
      !ONE_INVISIBLE.test(previous) &&
      !SELECTOR.test(next)
    );
  }
  if (char === '\u200c' || char === '\u200d') {
    let previous = before(text, index);
    if (previous === '\ufe0f') previous = before(text, index - 1);
    if (char === '\u200d' && PICTOGRAPH.test(previous) && PICTOGRAPH.test(next)) return true;
    return LETTER.test(previous) && LETTER.test(next) && previous > '\u007f' && next > '\u007f';
  }
  return false;
}

/**
 * `text` with every character that draws nothing replaced by `show(char)` (e.g. a visible
 * escape), but for those emoji and some scripts are written with.
 */
export function revealInvisible(text: string, show: (char: string) => string): string {
  return text.replace(INVISIBLE, (char: string, offset: number) =>
    partOfWriting(text, offset, char) ? char : show(char),
  );
}

/** The code points `text` holds that draw nothing, as `U+200B` marks, each once, in order. */
export function invisibleCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(INVISIBLE)) {
    const char = match[0];
    if (partOfWriting(text, match.index, char)) continue;
    found.add(`U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  }
  return [...found];
}

/**
 * The text that tag characters (U+E0020-U+E007E, which mirror ASCII) spell out in `text`, or
 * `undefined` when there is none: a description can carry a sentence no one sees.
 */
export function hiddenTagText(text: string): string | undefined {
  let hidden = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xe0020 && code <= 0xe007e) hidden += String.fromCharCode(code - 0xe0000);
  }
  return hidden === '' ? undefined : hidden;
}

/** Letters of other scripts that look like Latin ones (the common part of Unicode's confusables). */
// prettier-ignore
const LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a', в: 'b', е: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ѕ: 's', і: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ё: 'e', ї: 'i',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X',
  Ѕ: 'S', І: 'I', Ј: 'J', Ү: 'Y',
  // Greek
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', ι: 'i', κ: 'k', τ: 't', υ: 'u', χ: 'x', ϲ: 'c',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P',
  Τ: 'T', Υ: 'Y', Χ: 'X',
  // Latin look-alikes
  ı: 'i', ɡ: 'g', ɑ: 'a', ʟ: 'l',
  // Within ASCII: the glyphs a reader mistakes for each other
  I: 'l', '1': 'l', '|': 'l', '0': 'o', O: 'o',
};

/**
 * What a name looks like, for comparing it with others: compatibility forms folded (NFKC:
 * fullwidth, ligatures, superscripts), invisible characters dropped, look-alike letters of other
 * scripts (and `I`/`1`/`l`, `0`/`O`) taken as the Latin letter, in small letters. Two names with one
 * skeleton are easy to mistake for each other.
 */
export function nameSkeleton(name: string): string {
  let folded = '';
  for (const char of name.normalize('NFKC').replace(INVISIBLE, ''))
    folded += LOOKALIKES[char] ?? char;
  return folded.toLowerCase();
}

/** One thing a person should know about a tool's text. */
export interface ToolTextFinding {
  /** `invisible`: characters that draw nothing; `hidden-text`: tag characters spelling words; `lookalike`: the name is easy to take for another. */
  kind: 'invisible' | 'hidden-text' | 'lookalike';
  /** The field: `name`, `title` or `description`. */
  field: 'name' | 'title' | 'description';
  /** Said plainly, for the person. */
  message: string;
}

/** Findings about one field's text. */
function textFindings(field: ToolTextFinding['field'], text: string): ToolTextFinding[] {
  const findings: ToolTextFinding[] = [];
  const invisible = invisibleCharacters(text);
  if (invisible.length > 0)
    findings.push({
      kind: 'invisible',
      field,
      message: `the ${field} holds characters that draw nothing (${invisible.slice(0, 5).join(', ')}${invisible.length > 5 ? ', …' : ''})`,
    });
  const hidden = hiddenTagText(text);
  if (hidden !== undefined)
    findings.push({
      kind: 'hidden-text',
      field,
      message: `the ${field} hides text in tag characters: ${JSON.stringify(hidden.slice(0, 200))}`,
    });
  return findings;
}

/**
 * What a person should know about the text of each tool of a listing (or of several servers'
 * listings: pass `others`, the names of the tools it is shown beside): invisible characters and
 * hidden text in the name, title and description, and names easy to take for another tool's
 * (same skeleton) or not plain ASCII. Tools with nothing to say are left out.
 */
export function toolTextFindings(
  tools: readonly Tool[],
  others: readonly string[] = [],
): Map<string, ToolTextFinding[]> {
  const bySkeleton = new Map<string, Set<string>>();
  for (const name of [...tools.map((t) => t.name), ...others]) {
    const key = nameSkeleton(name);
    const names = bySkeleton.get(key) ?? new Set<string>();
    names.add(name);
    bySkeleton.set(key, names);
  }
  const result = new Map<string, ToolTextFinding[]>();
  for (const tool of tools) {
    const findings = textFindings('name', tool.name);
    const alike = [...(bySkeleton.get(nameSkeleton(tool.name)) ?? [])].filter(
      (n) => n !== tool.name,
    );
    if (alike.length > 0)
      findings.push({
        kind: 'lookalike',
        field: 'name',
        message: `the name looks like ${alike.map((n) => JSON.stringify(n)).join(', ')}`,
      });
    else if (!/^[\x20-\x7e]*$/.test(tool.name))
      findings.push({
        kind: 'lookalike',
        field: 'name',
        message: `the name is not plain ASCII (it reads like ${JSON.stringify(nameSkeleton(tool.name))})`,
      });
    if (typeof tool.title === 'string') findings.push(...textFindings('title', tool.title));
    if (typeof tool.description === 'string')
      findings.push(...textFindings('description', tool.description));
    if (findings.length > 0) result.set(tool.name, findings);
  }
  return result;
}

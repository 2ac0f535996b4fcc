/**
 * @module The copy of a string that secrets are looked for in, so that invisible or look-alike
 * characters cannot hide one from a redaction pattern: invisible characters removed (format
 * characters, `\p{Cf}`, and every other default-ignorable code point: zero-width spaces and
 * joiners, the soft hyphen, bidi controls, tag characters, variation selectors, fillers) and
 * every other character in its compatibility form (NFKC: fullwidth `ＡＫＩＡ` reads `AKIA`,
 * ligatures, circled and mathematical letters read as letters). Characters are normalised one by
 * one, not composed with their neighbours (canonical composition changes no ASCII secret). The
 * copy keeps a map back to the original, so that a match in the copy redacts the span of the
 * original it came from, invisible characters inside it included.
 *
 * Most strings are ASCII: their copy is themselves (one scan, nothing allocated). Others are
 * scanned for the few characters that may change (invisible, or changed by NFKC; a table
 * lookup per code unit), and copied only when one does.
 */

/** Any code point that is not ASCII. */
const NON_ASCII = /[^\u0000-\u007f]/;
const INVISIBLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
/**
 * Runs of the code points the copy may change: invisible ones, and those NFKC changes (a subset
 * of those NFKC_Casefold changes, which also has capital letters: the few it adds cost a lookup).
 */
const MAY_CHANGE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Changes_When_NFKC_Casefolded}]+/gu;

/**
 * Per UTF-16 code unit, 1 when the copy may change it (see {@link MAY_CHANGE}; every surrogate,
 * whose pair is looked up whole). Built on first use (a few ms), from the engine's own Unicode
 * tables: scanning with the property classes themselves costs several times more per string.
 */
let mayChange: Uint8Array | undefined;

function mayChangeTable(): Uint8Array {
  if (mayChange) return mayChange;
  const table = new Uint8Array(0x10000);
  table.fill(1, 0xd800, 0xe000);
  const units: string[] = [];
  for (let c = 0x80; c < 0xd800; c++) units.push(String.fromCharCode(c));
  for (let c = 0xe000; c < 0x10000; c++) units.push(String.fromCharCode(c));
  for (const run of units.join('').matchAll(MAY_CHANGE))
    for (let i = 0; i < run[0].length; i++) table[run[0].charCodeAt(i)] = 1;
  return (mayChange = table);
}

/** The copy's form of code points met so far ('' for an invisible one, null: unchanged), bounded. */
const forms = new Map<number, string | null>();
const MAX_FORMS = 4096;

/** What code point `code` becomes in the copy, or null when it stays as it is. */
function formOf(code: number): string | null {
  let form = forms.get(code);
  if (form === undefined) {
    const char = String.fromCodePoint(code);
    const normal = INVISIBLE.test(char) ? '' : char.normalize('NFKC');
    form = normal === char ? null : normal;
    if (forms.size >= MAX_FORMS) forms.clear();
    forms.set(code, form);
  }
  return form;
}

/**
 * A character the copy changed: `[norm, norm + normLength)` of the copy from `[orig, orig +
 * origLength)` of the original. Between two of them the copy is the original, offset for offset.
 */
interface Change {
  readonly norm: number;
  readonly normLength: number;
  readonly orig: number;
  readonly origLength: number;
}

/** A string as secrets are matched in it, and the way back to the original. */
export interface MatchingCopy {
  /** The normalised text. */
  readonly text: string;
  /**
   * The span of the original that `[start, end)` of the copy came from (`end > start`): a
   * character normalisation changed is covered whole, and so are the invisible characters
   * between the first and the last character the span covers.
   */
  origin(start: number, end: number): readonly [number, number];
}

/** The last change that starts at or before `at` in the copy, or undefined. */
function changeBefore(changes: readonly Change[], at: number): Change | undefined {
  let low = 0;
  let high = changes.length - 1;
  let found: Change | undefined;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const change = changes[mid] as Change;
    if (change.norm <= at) {
      found = change;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** Where code unit `at` of the copy is in the original: its start, or (`end`) its end. */
function originOf(changes: readonly Change[], at: number, end: boolean): number {
  // An invisible character's change is empty; the one before it holds `at` when it is a change.
  const change = changeBefore(changes, at);
  if (change === undefined) return end ? at + 1 : at;
  const within = at - change.norm;
  if (within < change.normLength) return end ? change.orig + change.origLength : change.orig;
  // Past the change: the same text, offset by what the changes before it added or removed.
  const offset = change.orig + change.origLength - (change.norm + change.normLength);
  return at + offset + (end ? 1 : 0);
}

/**
 * The copy of `text` to match secrets in, or undefined when it is `text` itself (ASCII, or no
 * character changes).
 */
export function matchingCopy(text: string): MatchingCopy | undefined {
  if (!NON_ASCII.test(text)) return undefined;
  const table = mayChangeTable();
  let changes: Change[] | undefined;
  let copy = '';
  let kept = 0; // text[kept…] is still to be copied
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80 || table[unit] === 0) continue;
    const code = text.codePointAt(i) as number;
    const width = code > 0xffff ? 2 : 1;
    const form = formOf(code);
    if (form !== null) {
      copy += text.slice(kept, i);
      (changes ??= []).push({
        norm: copy.length,
        normLength: form.length,
        orig: i,
        origLength: width,
      });
      copy += form;
      kept = i + width;
    }
    i += width - 1;
  }
  if (changes === undefined) return undefined;
  const found = changes;
  copy += text.slice(kept);
  return {
    text: copy,
    origin: (start, end) => [originOf(found, start, false), originOf(found, end - 1, true)],
  };
}

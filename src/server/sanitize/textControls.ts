/**
 * @module Finding and removing, in a tool's output strings, what a terminal or a text renderer
 * would act on instead of showing, and characters that hide text from a reader but not from a
 * model. Four families, each switched on its own (a bit of a {@link TextRules} mask):
 *
 * - `CONTROLS`: whole ESC sequences (CSI `ESC [` … final byte; OSC `ESC ]`, DCS `ESC P`, SOS
 *   `ESC X`, PM `ESC ^` and APC `ESC _` strings up to BEL, ST (`ESC \` or U+009C), CAN, SUB, the
 *   next ESC or the end of the string, OSC 8 hyperlinks included; any other `ESC` intermediates
 *   final), the same introduced by their one-character C1 forms (U+009B CSI, U+009D OSC, U+0090
 *   DCS, U+0098 SOS, U+009E PM, U+009F APC), the remaining C0 controls except tab and newline, DEL,
 *   and the remaining C1 controls U+0080–U+009F. A carriage return followed by a newline is kept
 *   (CRLF line ends are harmless); a lone one, which returns the cursor so that later text
 *   overwrites a line already shown, becomes a newline, so nothing that was written is hidden.
 * - `BIDI`: the bidi embedding, override and isolate characters U+202A–U+202E and U+2066–U+2069,
 *   which make text display in another order than it reads (Trojan Source, CVE-2021-42574). The
 *   marks U+200E, U+200F and U+061C, which right-to-left text needs, are kept.
 * - `TAGS`: the Unicode tag characters U+E0000–U+E007F, invisible on screen yet read by a model
 *   as ASCII ("ASCII smuggling" of instructions). Their only other use, the subdivision flag
 *   emoji (England, Scotland, Wales), degrades to a plain black flag.
 * - `ZERO_WIDTH`: U+200B–U+200D, U+2060–U+2064 and U+FEFF. Off by default: the zero-width joiner
 *   builds emoji sequences and Indic ligatures, the non-joiner is part of Persian spelling.
 *
 * Scanning allocates nothing; removal copies a string only when it holds something to remove.
 */

/** A mask of the families above. */
export type TextRules = number;

/** Escape sequences, C0 (but tab, newline, CRLF), DEL, C1; a lone CR becomes a newline. */
export const CONTROLS = 1;
/** Bidi embeddings, overrides and isolates. */
export const BIDI = 2;
/** Unicode tag characters U+E0000–U+E007F. */
export const TAGS = 4;
/** Zero-width spaces, joiners, word joiner, invisible operators and U+FEFF. */
export const ZERO_WIDTH = 8;

/** Whether the character at `i` (not printable ASCII) is removed under `rules`. */
function unsafeAt(text: string, i: number, rules: TextRules): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x20) {
    if ((rules & CONTROLS) === 0 || c === 0x09 || c === 0x0a) return false;
    return c !== 0x0d || text.charCodeAt(i + 1) !== 0x0a;
  }
  if (c <= 0x9f) return (rules & CONTROLS) !== 0; // DEL and C1
  if (c < 0x200b) return false;
  if (c <= 0x200d) return (rules & ZERO_WIDTH) !== 0;
  if (c >= 0x202a && c <= 0x202e) return (rules & BIDI) !== 0;
  if (c >= 0x2060 && c <= 0x2064) return (rules & ZERO_WIDTH) !== 0;
  if (c >= 0x2066 && c <= 0x2069) return (rules & BIDI) !== 0;
  if (c === 0xfeff) return (rules & ZERO_WIDTH) !== 0;
  if (c === 0xdb40) {
    // U+E0000–U+E007F are the surrogate pairs DB40 DC00–DC7F.
    const low = text.charCodeAt(i + 1);
    return (rules & TAGS) !== 0 && low >= 0xdc00 && low <= 0xdc7f;
  }
  return false;
}

/** Strings shorter than this are scanned by a loop; longer ones by a regular expression. */
const LOOP_SCAN_MAX = 32;

/**
 * One scanning expression per mask, built on first use: a single character class of every code
 * unit that may be removed (a class scans faster than alternatives); each hit is then confirmed
 * by {@link unsafeAt}, which looks at the next code unit for CRLF and tag surrogate pairs.
 */
const scanners: Array<RegExp | undefined> = [];

function scanner(rules: TextRules): RegExp {
  let found = scanners[rules];
  if (found) return found;
  let chars = '';
  if (rules & CONTROLS) chars += '\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f';
  if (rules & BIDI) chars += '\\u202a-\\u202e\\u2066-\\u2069';
  if (rules & ZERO_WIDTH) chars += '\\u200b-\\u200d\\u2060-\\u2064\\ufeff';
  if (rules & TAGS) chars += '\\udb40';
  // No `u` flag: surrogates are matched as the code units they are, like the loop does. Global,
  // so that `test` resumes after a hit that turns out harmless (a CR of a CRLF).
  found = new RegExp(`[${chars}]`, 'g');
  scanners[rules] = found;
  return found;
}

/**
 * Whether `rules` remove anything from `text`. Allocates nothing (after the first call per mask):
 * a loop for short strings, where calling into the regular expression engine costs more than the
 * scan, and a compiled expression for long ones, which it scans about twice as fast.
 */
export function hasUnsafe(text: string, rules: TextRules): boolean {
  if (rules === 0) return false;
  if (text.length >= LOOP_SCAN_MAX) {
    const re = scanner(rules);
    re.lastIndex = 0;
    while (re.test(text)) {
      if (unsafeAt(text, re.lastIndex - 1, rules)) {
        re.lastIndex = 0;
        return true;
      }
    }
    return false; // a failed test leaves lastIndex at 0
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue; // printable ASCII: the common case, two comparisons
    if (unsafeAt(text, i, rules)) return true;
  }
  return false;
}

function isFinalByte(c: number): boolean {
  return c >= 0x40 && c <= 0x7e;
}

/** The end of a CSI whose parameters start at `from`: after its final byte, or where it breaks. */
function csiEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
  return i < text.length && isFinalByte(text.charCodeAt(i)) ? i + 1 : i;
}

/**
 * The end of a control string (OSC, DCS, SOS, PM, APC) whose body starts at `from`: after BEL,
 * ST, CAN or SUB; at an ESC that starts another sequence; or the end of the text, since a
 * terminal would swallow an unterminated one up to there too.
 */
function controlStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x07 || c === 0x9c || c === 0x18 || c === 0x1a) return i + 1;
    if (c === 0x1b) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
  }
  return text.length;
}

/** Introducers of control strings after ESC: `]` OSC, `P` DCS, `X` SOS, `^` PM, `_` APC. */
function startsControlString(c: number): boolean {
  return c === 0x5d || c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f;
}

/** The end of the sequence starting with ESC or a C1 control at `i`. */
function sequenceEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x9b) return csiEnd(text, i + 1);
  if (c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f)
    return controlStringEnd(text, i + 1);
  if (c !== 0x1b) return i + 1; // another C1 control, or DEL
  const next = text.charCodeAt(i + 1);
  if (next === 0x5b) return csiEnd(text, i + 2);
  if (startsControlString(next)) return controlStringEnd(text, i + 2);
  // Any other escape sequence (ECMA-35): intermediates 0x20–0x2F, then a final 0x30–0x7E.
  let end = i + 1;
  while (end < text.length && text.charCodeAt(end) >= 0x20 && text.charCodeAt(end) <= 0x2f) end++;
  const final = text.charCodeAt(end);
  return final >= 0x30 && final <= 0x7e ? end + 1 : end;
}

/**
 * `text` without what `rules` remove (see the module documentation); the same string when there
 * is nothing to remove.
 */
export function stripText(text: string, rules: TextRules): string {
  let out = '';
  let kept = 0; // text[kept, i) is still to be copied
  let changed = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || !unsafeAt(text, i, rules)) {
      i++;
      continue;
    }
    let end = i + 1;
    let replacement = '';
    if (c === 0x1b || (c >= 0x80 && c <= 0x9f)) end = sequenceEnd(text, i);
    else if (c === 0x0d) replacement = '\n';
    else if (c === 0xdb40) end = i + 2;
    out += text.slice(kept, i) + replacement;
    changed = true;
    i = end;
    kept = end;
  }
  return changed ? out + text.slice(kept) : text;
}

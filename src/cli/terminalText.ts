/**
 * @module Making text from a server safe to print on a terminal. A server could otherwise move the
 * cursor, rewrite lines already printed, change the window title, plant OSC 8 hyperlinks whose
 * target differs from their text, or reverse text with bidi overrides.
 *
 * Every character that can start or take part in such a sequence is shown as a visible escape
 * instead of being sent: C0 controls other than newline and tab (`\r` too, which lets text
 * overwrite a line), ESC (so CSI `ESC [`, OSC `ESC ]`, DCS, SOS, PM and APC strings all arrive as
 * plain text), DEL, the C1 controls U+0080-U+009F (including the one-character CSI U+009B and OSC
 * U+009D), the bidi embedding, override and isolate characters (U+202A-U+202E, U+2066-U+2069),
 * and every other character that draws nothing: format characters (zero-width space and joiners,
 * soft hyphen, BOM, the tag characters U+E0000-U+E007F that can spell a hidden sentence),
 * variation selectors and Hangul fillers. They appear as `\r`, `\x1b`, `\x9b`, `\u202e`,
 * `\u200b`, `\u{e0041}`: what the server sent stays readable, nothing of it is interpreted, and
 * nothing is hidden (issue 19: descriptions passed zero-width and tag characters through).
 */

import { revealInvisible } from '../client/approval/toolText.js';

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
const UNSAFE_IN_LINE = /[\x00-\x1f\x7f-\x9f]/g;

function visible(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (char === '\r') return '\\r';
  if (char === '\n' || char === '\t') return ' ';
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/** Text safe for a terminal; newlines and tabs are kept. */
export function terminalText(text: string): string {
  return revealInvisible(text.replace(UNSAFE, visible), visible);
}

/** Text safe for a terminal on one line: newlines and tabs become spaces too. */
export function terminalLine(text: string): string {
  return revealInvisible(text.replace(UNSAFE_IN_LINE, visible), visible);
}

const UNSAFE_IN_JSON = /[\x7f-\x9f\u2028\u2029]/g;
/** A character as `\u` escapes (a pair of them beyond U+FFFF). */
const jsonEscape = (char: string): string =>
  Array.from(
    { length: char.length },
    (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`,
  ).join('');

/**
 * JSON text with the characters `JSON.stringify` leaves raw but a terminal would act on or not
 * draw (DEL, C1, bidi controls, zero-width and tag characters; also U+2028 and U+2029, which some
 * JavaScript parsers reject in strings) written as `\u` escapes (a pair of them beyond U+FFFF).
 * They can only occur inside strings, where the escape means the same character.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return revealInvisible(
    JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, jsonEscape),
    jsonEscape,
  );
}

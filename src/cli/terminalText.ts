/**
 * @module Making text from a server safe to print on a terminal. A server could otherwise move the
 * cursor, rewrite lines already printed, change the window title, plant OSC 8 hyperlinks whose
 * target differs from their text, or reverse text with bidi overrides.
 *
 * Every character that can start or take part in such a sequence is shown as a visible escape
 * instead of being sent: C0 controls other than newline and tab (`\r` too, which lets text
 * overwrite a line), ESC (so CSI `ESC [`, OSC `ESC ]`, DCS, SOS, PM and APC strings all arrive as
 * plain text), DEL, the C1 controls U+0080-U+009F (including the one-character CSI U+009B and OSC
 * U+009D), and the bidi embedding, override and isolate characters (U+202A-U+202E, U+2066-U+2069).
 * They appear as `\r`, `\x1b`, `\x9b`, `\u202e`: what the server sent stays readable, and nothing
 * of it is interpreted.
 */

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_IN_LINE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\r') return '\\r';
  if (char === '\n' || char === '\t') return ' ';
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text safe for a terminal; newlines and tabs are kept. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** Text safe for a terminal on one line: newlines and tabs become spaces too. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, visible);
}

const UNSAFE_IN_JSON = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * JSON text with the characters `JSON.stringify` leaves raw but a terminal would act on (DEL, C1,
 * bidi controls; also U+2028 and U+2029, which some JavaScript parsers reject in strings) written
 * as `\u` escapes. They can only occur inside strings, where the escape means the same character.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    UNSAFE_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

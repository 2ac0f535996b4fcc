/**
 * @module Text from a server as the page shows it: characters a reader cannot see (zero-width,
 * bidi controls, tag characters, other format and control characters) written as visible
 * `⟦U+200B⟧` marks, and lines that read like instructions to a model flagged, so that a tool
 * description cannot hide what it tells the model.
 */

/** Invisible or direction-changing characters (and C0/C1 controls but tab and newline). */
const HIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** The text with every hidden character shown as a mark. */
export function visible(text: string): string {
  return text.replace(
    HIDDEN,
    (c) => `⟦U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟧`,
  );
}

/** Phrases that address a model rather than describe a tool. */
const INSTRUCTION =
  /\b(ignore (all |any )?(previous|prior|above)|disregard|system prompt|you must|do not (tell|mention|reveal)|don't (tell|mention)|secret|password|api key|private key|~\/\.ssh|exfiltrat|before (using|calling) (this|any) tool)\b|<\/?(system|important|instructions?)>/i;

/** True when a line reads like an instruction to a model. */
export function instructionLike(line: string): boolean {
  return INSTRUCTION.test(line);
}

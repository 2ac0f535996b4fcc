import { describe, expect, it } from 'vitest';
import { matchingCopy } from './matchingCopy.js';

/** The original span of the first match of `pattern` in the copy of `text`. */
function spanOf(text: string, pattern: RegExp): string {
  const copy = matchingCopy(text);
  if (!copy) throw new Error('no copy');
  const match = pattern.exec(copy.text);
  if (!match) throw new Error(`no match in ${JSON.stringify(copy.text)}`);
  const [start, end] = copy.origin(match.index, match.index + match[0].length);
  return text.slice(start, end);
}

describe('matchingCopy', () => {
  it('is undefined when the text is its own copy (ASCII, or nothing to change)', () => {
    expect(matchingCopy('plain ASCII text')).toBeUndefined();
    expect(matchingCopy('Grüße aus Köln, 東京, ✓ 👍🏽')).toBeUndefined();
  });

  it('removes invisible characters and maps fullwidth, ligature and mathematical letters', () => {
    expect(matchingCopy('a\u200bb\u00adc\u2066d\u{e0041}e\ufe0f')?.text).toBe('abcde');
    expect(matchingCopy('ＡＢＣ１２３ ﬁ 𝐀 Ⓚ')?.text).toBe('ABC123 fi A K');
  });

  it('maps a match back to its span, invisible characters inside it included', () => {
    expect(spanOf('x \u200bAB\u200bC\u200b y', /ABC/)).toBe('AB\u200bC');
    expect(spanOf('x ＡＢＣ y', /BC/)).toBe('ＢＣ');
    // A character normalised into several is covered whole.
    expect(spanOf('a ﬁne day', /ine/)).toBe('ﬁne');
    expect(spanOf('𝐀\u200b𝐁 ok', /AB/)).toBe('𝐀\u200b𝐁');
    expect(spanOf('é\u200bé ＸＹ\u00ad end', /XY end/)).toBe('ＸＹ\u00ad end');
  });
});

/**
 * Issue 19, sanitising: redaction was defeated by invisible characters. `AKIA\u200b…` (a zero-width
 * space inside an AWS key id) passed every pattern, and so did a soft hyphen, a tag character, a
 * bidi control (with `bidi: false`) or fullwidth letters, while a model or a person reading the
 * output still read the secret. Patterns now also match a normalised copy of each string
 * (invisible characters removed, NFKC), and a match there redacts the span of the original it
 * came from, invisible characters inside it included; the rest of the text is left as it was.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../support/harness.js';
import type { CallToolResult } from '../../src/protocol/types.js';
import { COMMON_SECRET_PATTERNS, McpServer, type SanitizeOptions } from '../../src/server.js';
import { compileOutputPolicy } from '../../src/server/sanitize/outputPolicy.js';
import { sanitizeCallResult } from '../../src/server/sanitize/sanitizeResult.js';

const KEY = 'AKIAIOSFODNN7EXAMPLE';
const GITHUB = `ghp_${'a1B2'.repeat(9)}`;
/** The fullwidth form of printable ASCII (what NFKC maps back). */
const fullwidth = (text: string) =>
  [...text].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
/** Inserts `char` after every character of `text`. */
const interleave = (text: string, char: string) => [...text].join(char);

function textOf(text: string, options: SanitizeOptions = {}): string {
  const policy = compileOutputPolicy({ redact: COMMON_SECRET_PATTERNS, ...options });
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  const out = sanitizeCallResult(result, policy);
  return (out.content[0] as { text: string }).text;
}

describe('secrets hidden by invisible or look-alike characters are redacted', () => {
  it.each([
    ['a zero-width space', `id AKIA\u200bIOSFODNN7EXAMPLE;`],
    ['zero-width spaces everywhere', `id ${interleave(KEY, '\u200b')};`],
    ['a zero-width joiner and non-joiner', `id AKIA\u200dIOSF\u200cODNN7EXAMPLE;`],
    ['a word joiner', `id AKIAIOSF\u2060ODNN7EXAMPLE;`],
    ['a byte order mark', `id AKIAIOSFODNN7\ufeffEXAMPLE;`],
    ['soft hyphens', `id ${interleave(KEY, '\u00ad')};`],
    ['a variation selector', `id AKIAIOSFODNN7EXAMP\ufe0fLE;`],
    ['a Hangul filler', `id AKIAIOSF\u3164ODNN7EXAMPLE;`],
    ['fullwidth letters and digits', `id ${fullwidth(KEY)};`],
    ['fullwidth letters with zero-width spaces', `id ${interleave(fullwidth(KEY), '\u200b')};`],
  ])('%s (default options)', (_what, text) => {
    expect(textOf(text)).toBe('id [REDACTED];');
  });

  it.each([
    ['bidi controls', `id AKIA\u202eIOSFODNN7\u2066EXAMPLE;`],
    ['tag characters (U+E0000 block)', `id AKIA\u{e0041}\u{e0020}IOSFODNN7\u{e007f}EXAMPLE;`],
  ])('%s, also when the option that removes them is off', (_what, text) => {
    expect(textOf(text)).toBe('id [REDACTED];');
    expect(textOf(text, { bidi: false, tags: false })).toBe('id [REDACTED];');
  });

  it('redacts only the secret: invisible characters and non-ASCII text around it stay', () => {
    const text = `Grüße\u200b, ｋｅｙ: AKIA\u200bIOSFODNN7EXAMPLE\u200b — ＯＫ ✓ 👍🏽 ﬁn`;
    expect(textOf(text)).toBe('Grüße\u200b, ｋｅｙ: [REDACTED]\u200b — ＯＫ ✓ 👍🏽 ﬁn');
  });

  it('redacts every hidden secret of a string, and plain ones beside them', () => {
    const text = `a ${KEY} b AKIA\u00adIOSFODNN7EXAMPLE c ${interleave(GITHUB, '\u200b')} d`;
    expect(textOf(text)).toBe('a [REDACTED] b [REDACTED] c [REDACTED] d');
  });

  it('expands $-references of a replacement from the normalised match', () => {
    const policy = compileOutputPolicy({
      redact: [{ pattern: /(AKIA)[0-9A-Z]{16}/, replacement: '$1…[$$]' }],
    });
    const out = sanitizeCallResult(
      { content: [{ type: 'text', text: `x ＡＫＩＡ\u200bIOSFODNN7EXAMPLE y` }] },
      policy,
    );
    expect(out.content).toEqual([{ type: 'text', text: 'x AKIA…[$] y' }]);
  });

  it('leaves text without secrets as it is (the same object)', () => {
    const policy = compileOutputPolicy({ redact: COMMON_SECRET_PATTERNS });
    for (const text of [
      'Le café était fermé à Noël.',
      '東京都（とうきょうと）は日本の首都です。人口は約１４００万人。',
      'zero\u200bwidth and soft\u00adhyphen in ordinary words',
      'ＡＫＩＡ alone, AKIA\u200b1234 short',
    ]) {
      const result: CallToolResult = { content: [{ type: 'text', text }] };
      expect(sanitizeCallResult(result, policy)).toBe(result);
    }
  });

  it('through a server: text, structured content and progress messages', async () => {
    const errors: string[] = [];
    const server = new McpServer(
      { name: 'leaky', version: '1' },
      {
        sanitize: { redact: COMMON_SECRET_PATTERNS },
        onerror: (error, what) => errors.push(`${what}: ${String(error)}`),
      },
    );
    server.registerTool('leak', {}, async (_args, ctx) => {
      ctx.progress(1, { message: `using AKIA\u200bIOSFODNN7EXAMPLE` });
      return {
        content: [{ type: 'text', text: `key: ${interleave(KEY, '\u2060')}` }],
        structuredContent: { token: fullwidth(GITHUB) },
      };
    });
    const c = await connect(server);
    const progress: string[] = [];
    const result = await c.client.callTool(
      'leak',
      {},
      { onprogress: (p) => progress.push(String(p.message)) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'key: [REDACTED]' }]);
    expect(result.structuredContent).toEqual({ token: '[REDACTED]' });
    expect(progress).toEqual(['using [REDACTED]']);
    expect(errors.join('\n')).toMatch(/redacted \/content\/0\/text \(aws-access-key-id\)/);
  });
});

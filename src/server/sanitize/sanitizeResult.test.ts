import { describe, expect, it, vi } from 'vitest';
import type { CallToolResult, ContentBlock } from '../../protocol/types.js';
import { era2025 } from '../../protocol/eras/rev2025/era.js';
import type { CallPlan } from '../call/callPlan.js';
import { projected } from '../call/callResult.js';
import { throughSanitizeStage } from '../call/sanitizeStage.js';
import {
  compileOutputPolicy,
  DEFAULT_OUTPUT_POLICY,
  type SanitizeOptions,
} from './outputPolicy.js';
import { toolError } from '../results.js';
import {
  describeFindings,
  sanitizeCallResult,
  sanitizeStage,
  sanitizeText,
  type SanitizeFinding,
} from './sanitizeResult.js';
import { COMMON_SECRET_PATTERNS } from './secretPatterns.js';

/** Freezes a value deeply, so that any write to the input fails the test. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) frozen((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

function run(result: CallToolResult, options?: SanitizeOptions) {
  const findings: SanitizeFinding[] = [];
  const policy = options === undefined ? DEFAULT_OUTPUT_POLICY : compileOutputPolicy(options);
  return { out: sanitizeCallResult(frozen(result), policy, findings), findings };
}

const ESC = '\x1b[31m';

describe('sanitizeCallResult: clean results', () => {
  it.each<[string, CallToolResult]>([
    ['one text block', { content: [{ type: 'text', text: 'hello' }] }],
    [
      'every content type, clean',
      {
        content: [
          { type: 'text', text: 'multi\nline\ttext\r\nwith CRLF, é 漢字 😀 \u200d' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'audio', data: 'T2dn', mimeType: 'audio/ogg' },
          {
            type: 'resource_link',
            uri: 'file:///project/src/main.rs',
            name: 'main.rs',
            title: 'Main',
            description: 'Entry point',
            mimeType: 'text/x-rust',
            icons: [{ src: 'https://example.com/rust.png' }],
          },
          { type: 'resource', resource: { uri: 'https://x/a', mimeType: 'text/plain', text: 'a' } },
          { type: 'resource', resource: { uri: 'urn:x:y', blob: 'AAAA' } },
        ],
      },
    ],
    [
      'nested structured content',
      {
        content: [],
        structuredContent: {
          a: [1, 'two', { three: [true, null, 'four'] }],
          'key with space': 'v',
        },
      },
    ],
    ['an error result', { content: [{ type: 'text', text: 'It failed' }], isError: true }],
    [
      '_meta and annotations, which are never rewritten',
      {
        content: [
          {
            type: 'text',
            text: 'ok',
            annotations: { audience: ['user'], priority: 1 },
            _meta: { raw: `${ESC}left as is` },
          },
        ],
        _meta: { 'example.com/raw': '\u202e' },
      },
    ],
  ])('returns %s as the same object', (_what, result) => {
    const { out, findings } = run(result);
    expect(out).toBe(result);
    expect(findings).toEqual([]);
  });
});

describe('sanitizeCallResult: strings', () => {
  it('strips text blocks and keeps the block otherwise', () => {
    const annotations = { audience: ['user' as const] };
    const meta = { keep: `${ESC}x` };
    const { out, findings } = run({
      content: [
        {
          type: 'text',
          text: `${ESC}red\x1b[0m \u202eevil\u202c and hidden\u{e0041}`,
          annotations,
          _meta: meta,
        },
        { type: 'text', text: 'untouched' },
      ],
    });
    expect(out.content[0]).toEqual({
      type: 'text',
      text: 'red evil and hidden',
      annotations,
      _meta: meta,
    });
    expect((out.content[0] as { _meta: unknown })._meta).toBe(meta);
    expect(findings).toEqual([{ kind: 'stripped', path: '/content/0/text' }]);
  });

  it("strips a resource link's name, title, description and mimeType, not its URI", () => {
    const { out, findings } = run({
      content: [
        {
          type: 'resource_link',
          uri: 'https://example.com/a',
          name: `a${ESC}`,
          title: 't\x07',
          description: 'line\roverwritten',
          mimeType: 'text/plain\x1b]0;x\x07',
        },
      ],
    });
    expect(out.content[0]).toEqual({
      type: 'resource_link',
      uri: 'https://example.com/a',
      name: 'a',
      title: 't',
      description: 'line\noverwritten',
      mimeType: 'text/plain',
    });
    expect(findings.map((f) => f.path)).toEqual([
      '/content/0/name',
      '/content/0/title',
      '/content/0/description',
      '/content/0/mimeType',
    ]);
  });

  it("strips an embedded text resource's text and mimeType, and leaves a blob alone", () => {
    const { out } = run({
      content: [
        { type: 'resource', resource: { uri: 'file:///a', mimeType: `t${ESC}`, text: `x${ESC}y` } },
        { type: 'resource', resource: { uri: 'file:///b', mimeType: `b${ESC}`, blob: 'G1szMW0=' } },
        { type: 'image', data: 'AAAA', mimeType: `image/png${ESC}` },
        { type: 'audio', data: 'AAAA', mimeType: `audio/wav\x00` },
      ],
    });
    expect(out.content).toEqual([
      { type: 'resource', resource: { uri: 'file:///a', mimeType: 't', text: 'xy' } },
      { type: 'resource', resource: { uri: 'file:///b', mimeType: 'b', blob: 'G1szMW0=' } },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    ]);
  });

  it('strips the strings and keys of nested structured content, copying only changed parts', () => {
    const untouched = { deep: ['fine', 1] };
    const { out, findings } = run({
      content: [],
      structuredContent: {
        untouched,
        list: ['ok', `${ESC}bad`, { inner: ['\u202e', 2, null, false] }],
        [`key${ESC}`]: 'value',
      },
    });
    expect(out.structuredContent).toEqual({
      untouched,
      list: ['ok', 'bad', { inner: ['', 2, null, false] }],
      key: 'value',
    });
    expect((out.structuredContent as { untouched: unknown }).untouched).toBe(untouched);
    expect(findings.map((f) => f.path)).toEqual([
      '/structuredContent/list/1',
      '/structuredContent/list/2/inner/0',
      '/structuredContent/key', // the key, as it is now
    ]);
  });

  it('keeps key order and unchanged values when a later key changes', () => {
    const first = { a: [1] };
    const { out } = run({ content: [], structuredContent: { first, [`b${ESC}`]: 1, c: 'x' } });
    expect(Object.keys(out.structuredContent ?? {})).toEqual(['first', 'b', 'c']);
    expect((out.structuredContent as { first: unknown }).first).toBe(first);
  });

  it('strips annotations.lastModified, which the date check lets a comment through', () => {
    const lastModified = 'Jan 1 2025 (\x1b]0;pwned\x07)';
    expect(Number.isNaN(Date.parse(lastModified))).toBe(false);
    const annotations = { audience: ['user' as const], lastModified };
    const { out, findings } = run({
      content: [
        { type: 'text', text: 'a', annotations },
        { type: 'resource_link', uri: 'javascript:x', name: 'n', annotations },
      ],
    });
    const cleaned = { audience: ['user'], lastModified: 'Jan 1 2025 ()' };
    expect(out.content[0]).toEqual({ type: 'text', text: 'a', annotations: cleaned });
    expect((out.content[1] as { annotations: unknown }).annotations).toEqual(cleaned);
    expect(findings[0]).toEqual({ kind: 'stripped', path: '/content/0/annotations/lastModified' });
  });

  it('keeps a __proto__ key an own property and never touches prototypes', () => {
    const structured = JSON.parse('{"__proto__": {"polluted": "\\u001b[1mx"}, "a": "b"}') as Record<
      string,
      unknown
    >;
    const { out } = run({ content: [], structuredContent: structured });
    const sc = out.structuredContent as Record<string, unknown>;
    expect(Object.getPrototypeOf(sc)).toBe(Object.prototype);
    expect(Object.keys(sc)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(sc)).toBe('{"__proto__":{"polluted":"x"},"a":"b"}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('leaves structured content alone with structuredContent: false', () => {
    const structuredContent = { a: `${ESC}x` };
    const { out } = run(
      { content: [{ type: 'text', text: ESC }], structuredContent },
      { structuredContent: false },
    );
    expect(out.content).toEqual([{ type: 'text', text: '' }]);
    expect(out.structuredContent).toBe(structuredContent);
  });

  it('sanitises error results the same way (ToolError and other isError texts)', () => {
    const { out } = run(toolError(`Not found: \x1b]8;;https://evil\x07/etc/x\x1b]8;;\x07\u202e`));
    expect(out).toEqual({ content: [{ type: 'text', text: 'Not found: /etc/x' }], isError: true });
  });

  it('never modifies its input', () => {
    // run() freezes the input deeply: a write would throw.
    const result: CallToolResult = {
      content: [
        { type: 'text', text: ESC },
        { type: 'resource_link', uri: 'javascript:x', name: ESC },
        { type: 'resource_link', uri: 'https://a', name: 'n', icons: [{ src: 'javascript:x' }] },
      ],
      structuredContent: { [ESC]: [ESC] },
    };
    const before = JSON.stringify(result);
    expect(() => run(result)).not.toThrow();
    expect(JSON.stringify(result)).toBe(before);
  });
});

describe('sanitizeCallResult: URIs', () => {
  const link = (uri: string): ContentBlock => ({ type: 'resource_link', uri, name: 'n' });

  it.each([
    ['javascript:alert(1)', 'the URI scheme "javascript" runs script'],
    ['JaVaScRiPt:alert(1)', 'the URI scheme "javascript" runs script'],
    [' javascript:alert(1)', 'the URI does not start with a scheme'],
    ['\x00javascript:alert(1)', 'the URI does not start with a scheme'],
    ['data:text/html,<script>alert(1)</script>', 'the URI scheme "data" is not allowed'],
    ['memo://x', 'the URI scheme "memo" is not allowed'],
  ])('withholds a resource link to %j by default, keeping its annotations', (uri, reason) => {
    const annotations = { priority: 0.5 };
    const { out, findings } = run({
      content: [
        { type: 'text', text: 'before' },
        { ...link(uri), annotations, _meta: { m: 1 } },
      ],
    });
    expect(out.content).toEqual([
      { type: 'text', text: 'before' },
      {
        type: 'text',
        text: `Resource link withheld by the server's output policy: ${reason}.`,
        annotations,
      },
    ]);
    expect(findings).toEqual([
      { kind: 'uri', path: '/content/1', detail: `Resource link: ${reason}` },
    ]);
  });

  it('checks embedded resources too', () => {
    const { out } = run({
      content: [{ type: 'resource', resource: { uri: 'vbscript:x', text: 'payload' } }],
    });
    expect(out.content).toEqual([
      {
        type: 'text',
        text: `Embedded resource withheld by the server's output policy: the URI scheme "vbscript" runs script.`,
      },
    ]);
  });

  it('drops the block with refusedUri: "drop"', () => {
    const { out, findings } = run(
      { content: [link('javascript:x'), { type: 'text', text: 'kept' }] },
      { refusedUri: 'drop' },
    );
    expect(out.content).toEqual([{ type: 'text', text: 'kept' }]);
    expect(findings).toHaveLength(1);
  });

  it('withholds the whole result with refusedUri: "error"', () => {
    const { out } = run(
      {
        content: [{ type: 'text', text: 'kept?' }, link('javascript:x')],
        structuredContent: { a: 1 },
      },
      { refusedUri: 'error' },
    );
    expect(out).toEqual(
      toolError(
        `The tool's result was withheld by the server's output policy: content[1] is a resource link whose URI was refused (the URI scheme "javascript" runs script)`,
      ),
    );
  });

  it('lets custom schemes through once allowed, by list or by function', () => {
    const result: CallToolResult = { content: [link('memo://notes/1')] };
    expect(run(result, { uriSchemes: [...['https'], 'memo'] }).out).toBe(result);
    expect(run(result, { uriSchemes: (scheme) => scheme === 'memo' }).out).toBe(result);
    expect(run(result, { uriSchemes: false }).out).toBe(result);
    // Script schemes stay refused for a function that allows everything.
    const js: CallToolResult = { content: [link('javascript:x')] };
    expect(run(js, { uriSchemes: () => true }).out).not.toBe(js);
  });

  it('leaves out icons whose src is not https: or a data: image', () => {
    const good = { src: 'https://example.com/i.png' };
    const { out, findings } = run({
      content: [
        {
          type: 'resource_link',
          uri: 'https://example.com/a',
          name: 'a',
          icons: [good, { src: 'javascript:alert(1)' }, { src: 'data:image/svg+xml,<svg/>' }],
        },
        {
          type: 'resource_link',
          uri: 'https://example.com/b',
          name: 'b',
          icons: [{ src: 'file:///etc/passwd' }],
        },
      ],
    });
    expect(out.content).toEqual([
      { type: 'resource_link', uri: 'https://example.com/a', name: 'a', icons: [good] },
      { type: 'resource_link', uri: 'https://example.com/b', name: 'b' },
    ]);
    expect(findings.map((f) => `${f.kind} ${f.path}`)).toEqual([
      'icon /content/0/icons/1',
      'icon /content/0/icons/2',
      'icon /content/1/icons/0',
    ]);
  });
});

describe('sanitizeCallResult: redaction', () => {
  const options: SanitizeOptions = { redact: COMMON_SECRET_PATTERNS };

  it('is off by default', () => {
    const result: CallToolResult = { content: [{ type: 'text', text: 'AKIAIOSFODNN7EXAMPLE' }] };
    expect(run(result).out).toBe(result);
  });

  it('redacts text, link fields, embedded text and structured values; never keys, URIs or _meta', () => {
    const key = 'AKIAIOSFODNN7EXAMPLE';
    const { out, findings } = run(
      {
        content: [
          { type: 'text', text: `id ${key}` },
          {
            type: 'resource_link',
            uri: `https://example.com/${key}`,
            name: key,
            description: `d ${key}`,
          },
          { type: 'resource', resource: { uri: 'file:///env', text: `AWS=${key}` } },
        ],
        structuredContent: { [key]: key, nested: [{ k: `x ${key}` }] },
        _meta: { key },
      },
      options,
    );
    expect(out).toEqual({
      content: [
        { type: 'text', text: 'id [REDACTED]' },
        {
          type: 'resource_link',
          uri: `https://example.com/${key}`,
          name: '[REDACTED]',
          description: 'd [REDACTED]',
        },
        { type: 'resource', resource: { uri: 'file:///env', text: 'AWS=[REDACTED]' } },
      ],
      structuredContent: { [key]: '[REDACTED]', nested: [{ k: 'x [REDACTED]' }] },
      _meta: { key },
    });
    expect(findings.every((f) => f.kind === 'redacted' && f.detail === 'aws-access-key-id')).toBe(
      true,
    );
    expect(findings).toHaveLength(6);
  });

  it('redacts after stripping, so an escape sequence cannot split a secret', () => {
    const { out } = run(
      { content: [{ type: 'text', text: `AKIA${ESC}IOSFODNN7EXAMPLE` }] },
      options,
    );
    expect(out.content).toEqual([{ type: 'text', text: '[REDACTED]' }]);
  });

  it('runs a function, and holds what it returns to the same rules', () => {
    const fn = (text: string) => text.replace('password', `\x1b[8m********`);
    const { out, findings } = run(
      { content: [{ type: 'text', text: 'password: x' }] },
      { redact: [fn] },
    );
    expect(out.content).toEqual([{ type: 'text', text: '********: x' }]);
    expect(findings).toEqual([{ kind: 'redacted', path: '/content/0/text', detail: 'fn' }]);
  });
});

describe('sanitizeText', () => {
  it('strips and redacts one string, the same string when clean', () => {
    const policy = compileOutputPolicy({ redact: [/hunter2/] });
    expect(sanitizeText(`50% ${ESC}hunter2`, policy)).toBe('50% [REDACTED]');
    const clean = 'progress 50%';
    expect(sanitizeText(clean, policy)).toBe(clean);
  });
});

describe('sanitizeStage', () => {
  const target = (report = vi.fn()) => ({ deps: { report }, entry: { name: 'fetch' } });

  it('reports withheld blocks and redactions once per result, naming the tool', () => {
    const report = vi.fn();
    const policy = compileOutputPolicy({ redact: [/hunter2/] });
    sanitizeStage(
      target(report),
      {
        content: [
          { type: 'text', text: `${ESC}hunter2` },
          { type: 'resource_link', uri: 'javascript:x', name: 'n' },
          { type: 'resource_link', uri: 'ftp://x', name: 'n' },
        ],
      },
      policy,
    );
    expect(report).toHaveBeenCalledTimes(1);
    const [error, what] = report.mock.calls[0] as [Error, string];
    expect(what).toBe('tool "fetch" output was sanitised');
    expect(error.message).toBe(
      'redacted /content/0/text (/hunter2/); withheld /content/1 (Resource link: the URI scheme "javascript" runs script); withheld /content/2 (Resource link: the URI scheme "ftp" is not allowed)',
    );
  });

  it('does not report stripped control characters, nor a clean result', () => {
    const report = vi.fn();
    const clean: CallToolResult = { content: [{ type: 'text', text: 'ok' }] };
    expect(sanitizeStage(target(report), clean, DEFAULT_OUTPUT_POLICY)).toBe(clean);
    const out = sanitizeStage(
      target(report),
      { content: [{ type: 'text', text: ESC }] },
      DEFAULT_OUTPUT_POLICY,
    );
    expect(out.content).toEqual([{ type: 'text', text: '' }]);
    expect(report).not.toHaveBeenCalled();
  });

  it('follows a per-tool override: false, or other schemes', () => {
    const server = compileOutputPolicy(undefined);
    const hostile: CallToolResult = {
      content: [{ type: 'resource_link', uri: 'memo://a', name: `n${ESC}` }],
    };
    expect(sanitizeStage(target(), hostile, compileOutputPolicy(false, server))).toBe(hostile);
    const memo = compileOutputPolicy({ uriSchemes: ['memo'] }, server);
    expect(sanitizeStage(target(), hostile, memo).content).toEqual([
      { type: 'resource_link', uri: 'memo://a', name: 'n' },
    ]);
  });

  it('lists at most eight findings in a report', () => {
    const findings: SanitizeFinding[] = Array.from({ length: 11 }, (_, i) => ({
      kind: 'redacted',
      path: `/content/${i}/text`,
      detail: 'r',
    }));
    expect(describeFindings(findings)).toMatch(/\/content\/7\/text \(r\); and 3 more$/);
    expect(describeFindings([{ kind: 'stripped', path: '/content/0/text' }])).toBeUndefined();
  });
});

describe('the size limit after sanitising', () => {
  function plan(maxResultBytes: number, report = vi.fn()): CallPlan {
    return {
      deps: { maxResultBytes, report },
      entry: { name: 'links', maxResultBytes: undefined },
      profile: era2025.profile('2025-11-25'),
      exit: throughSanitizeStage,
    } as unknown as CallPlan;
  }

  it('applies to the result as sanitising left it', () => {
    // A short link whose refusal makes a longer text block: under the limit before, over after.
    const result: CallToolResult = {
      content: [{ type: 'resource_link', uri: 'javascript:x', name: 'n' }],
    };
    const limit = 100;
    const p = plan(limit);
    expect(projected(p, result)).toEqual(result); // the raw result fits...
    const sanitised = sanitizeStage(p, result, DEFAULT_OUTPUT_POLICY);
    expect(JSON.stringify(sanitised).length).toBeGreaterThan(limit);
    const sent = projected(p, sanitised); // ...the sanitised one does not, and is refused
    expect(sent.isError).toBe(true);
    expect((sent.content[0] as { text: string }).text).toMatch(
      /^Tool "links" returned \d+ bytes, over the 100-byte limit on a result; it was not sent$/,
    );
  });
});

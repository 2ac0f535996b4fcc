import { describe, expect, it } from 'vitest';
import { compileRedactions, needsRedaction, redact } from './redaction.js';
import { COMMON_SECRET_PATTERNS } from './secretPatterns.js';

const common = compileRedactions(COMMON_SECRET_PATTERNS, 'redact');
const run = (text: string) => redact(text, common);

describe('compileRedactions', () => {
  it('replaces every match, with or without the g flag, by [REDACTED] unless told', () => {
    const compiled = compileRedactions(
      [/secret-\d+/, { pattern: /tok_[a-z]+/g, replacement: '<$&>', name: 'tok' }],
      'redact',
    );
    expect(redact('a secret-1 b secret-22 tok_x tok_y', compiled)).toEqual({
      text: 'a [REDACTED] b [REDACTED] <tok_x> <tok_y>',
      labels: ['/secret-\\d+/', 'tok'],
    });
    expect(needsRedaction('nothing here', compiled)).toBe(false);
    expect(needsRedaction('tok_z', compiled)).toBe(true);
  });

  it('keeps no regex state between strings (a global pattern does not skip a match)', () => {
    const compiled = compileRedactions([/key-\d/g], 'redact');
    for (let i = 0; i < 3; i++) expect(needsRedaction('key-1', compiled)).toBe(true);
  });

  it('runs functions in order with the patterns', () => {
    const upperSecret = (text: string) => text.replace(/SECRET/g, '******');
    const compiled = compileRedactions([/hunter2/, upperSecret], 'redact');
    expect(redact('hunter2 SECRET', compiled)).toEqual({
      text: '[REDACTED] ******',
      labels: ['/hunter2/', 'upperSecret'],
    });
    expect(needsRedaction('fine', compiled)).toBe(false);
  });

  it('refuses what cannot work, naming the entry', () => {
    expect(() => compileRedactions('x', 'sanitize.redact')).toThrow(
      'sanitize.redact must be an array or false',
    );
    expect(() => compileRedactions([/a/, 'b'], 'sanitize.redact')).toThrow(
      'sanitize.redact[1] must be a RegExp, a { pattern, replacement?, name? } rule or a function',
    );
    expect(() => compileRedactions([/x*/], 'sanitize.redact')).toThrow(
      'sanitize.redact[0] must not match the empty string',
    );
    expect(() =>
      compileRedactions([{ pattern: /x/, replacement: '\x1b[31m' }], 'sanitize.redact'),
    ).toThrow('sanitize.redact[0].replacement must not contain control characters');
    expect(() => compileRedactions([{ pattern: 'x' }], 'sanitize.redact')).toThrow(
      'sanitize.redact[0].pattern must be a RegExp',
    );
  });

  it('fails loudly when a function returns something other than a string', () => {
    const broken = compileRedactions([() => undefined as unknown as string], 'redact');
    expect(() => redact('x', broken)).toThrow('did not return a string');
  });
});

describe('COMMON_SECRET_PATTERNS', () => {
  it.each([
    [
      'private-key',
      'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nok',
      'key:\n[REDACTED PRIVATE KEY]\nok',
    ],
    [
      'private-key (OpenSSH, cut short)',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE',
      '[REDACTED PRIVATE KEY]',
    ],
    [
      'private-key (PKCS#8)',
      '-----BEGIN PRIVATE KEY-----\nMC4CAQ\n-----END PRIVATE KEY-----',
      '[REDACTED PRIVATE KEY]',
    ],
    ['aws-access-key-id', 'id=AKIAIOSFODNN7EXAMPLE;', 'id=[REDACTED];'],
    ['github-token', `t ghp_${'a'.repeat(36)} t`, 't [REDACTED] t'],
    ['github fine-grained token', `github_pat_${'A1_'.repeat(10)}`, '[REDACTED]'],
    ['gitlab-token', 'glpat-abcdefghij0123456789', '[REDACTED]'],
    ['slack-token', 'xoxb-123456789012-abcdefghij', '[REDACTED]'],
    ['stripe-secret-key', `sk_live_${'4'.repeat(24)}`, '[REDACTED]'],
    ['google-api-key', `AIza${'x'.repeat(35)}`, '[REDACTED]'],
    ['openai-anthropic-key', `sk-ant-api03-${'Z'.repeat(40)}`, '[REDACTED]'],
    ['jwt', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXZhbHVl', '[REDACTED]'],
    [
      'authorization-credentials',
      'Authorization: Bearer abc.DEF-ghi_123456789',
      'Authorization: Bearer [REDACTED]',
    ],
    [
      'basic credentials',
      'authorization: basic dXNlcjpwYXNzd29yZA==',
      'authorization: basic [REDACTED]',
    ],
    ['url-password', 'postgres://app:s3cr3t@db:5432/x', 'postgres://app:[REDACTED]@db:5432/x'],
  ])('redacts %s', (_name, input, expected) => {
    expect(run(input).text).toBe(expected);
  });

  it.each([
    'The AKIA prefix alone, or AKIA1234 short',
    'git checkout ghp_short',
    'sk-learn is a library; sk-short',
    'Bearer token',
    'https://example.com/a:b@c (a colon and an @ in the path, not user info)',
    'eyJ alone',
    '-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----',
    'https://user@example.com/',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(run(text)).toEqual({ text, labels: [] });
  });

  it('handles long adversarial strings (bounded repetitions; a backtracking pattern would hang here)', () => {
    for (const input of [
      'a.'.repeat(50_000),
      'x://'.repeat(20_000),
      'Bearer '.repeat(20_000),
      'eyJ'.repeat(30_000),
    ])
      expect(run(input).text).toBe(input);
    expect(run(`-----BEGIN PRIVATE KEY-----${'A'.repeat(100_000)}`).text).toBe(
      '[REDACTED PRIVATE KEY]',
    );
  });
});

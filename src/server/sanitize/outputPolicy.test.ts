import { describe, expect, it } from 'vitest';
import {
  compileOutputPolicy,
  DEFAULT_OUTPUT_POLICY,
  DEFAULT_URI_SCHEMES,
  OUTPUT_POLICY_OFF,
  type SanitizeOptions,
} from './outputPolicy.js';
import { sanitizeCallResult } from './sanitizeResult.js';
import { BIDI, CONTROLS, TAGS, ZERO_WIDTH } from './textControls.js';

describe('compileOutputPolicy', () => {
  it('has documented defaults: controls, bidi and tags removed, URIs checked, nothing redacted', () => {
    const policy = compileOutputPolicy(undefined);
    expect(policy).toBe(DEFAULT_OUTPUT_POLICY);
    expect(policy.active).toBe(true);
    expect(policy.text).toBe(CONTROLS | BIDI | TAGS);
    expect(policy.structuredContent).toBe(true);
    expect(policy.uris).toEqual(['https', 'http', 'file', 'git', 'urn']);
    expect(policy.refusedUri).toBe('withhold');
    expect(policy.redactions).toEqual([]);
    expect(DEFAULT_URI_SCHEMES).toEqual(['https', 'http', 'file', 'git', 'urn']);
  });

  it('turns everything off with false', () => {
    const policy = compileOutputPolicy(false);
    expect(policy).toBe(OUTPUT_POLICY_OFF);
    expect(policy.active).toBe(false);
    const hostile = {
      content: [{ type: 'resource_link' as const, uri: 'javascript:x', name: '\x1b[2J' }],
    };
    expect(sanitizeCallResult(hostile, policy)).toBe(hostile);
  });

  it('is inactive when every part is switched off, and active again for any one of them', () => {
    const none: SanitizeOptions = { controls: false, bidi: false, tags: false, uriSchemes: false };
    expect(compileOutputPolicy(none).active).toBe(false);
    expect(compileOutputPolicy({ ...none, zeroWidth: true }).text).toBe(ZERO_WIDTH);
    expect(compileOutputPolicy({ ...none, redact: [/x/] }).active).toBe(true);
  });

  it('normalises allowed schemes (case, trailing colon)', () => {
    expect(compileOutputPolicy({ uriSchemes: ['HTTPS:', 'Memo'] }).uris).toEqual(['https', 'memo']);
  });

  it('lets a tool override the server field by field', () => {
    const server = compileOutputPolicy({ uriSchemes: ['https', 'memo'], redact: [/secret/] });
    const tool = compileOutputPolicy({ bidi: false }, server);
    expect(tool.text).toBe(CONTROLS | TAGS);
    expect(tool.uris).toEqual(['https', 'memo']);
    expect(tool.redactions.map((r) => r.label)).toEqual(['/secret/']);
    // A tool's redact replaces the server's.
    expect(
      compileOutputPolicy({ redact: [/other/] }, server).redactions.map((r) => r.label),
    ).toEqual(['/other/']);
    expect(compileOutputPolicy({ redact: false }, server).redactions).toEqual([]);
    // No tool option: the server's policy itself; false: off for this tool only.
    expect(compileOutputPolicy(undefined, server)).toBe(server);
    expect(compileOutputPolicy(false, server)).toBe(OUTPUT_POLICY_OFF);
  });

  it('applies a tool override over the defaults when the server turned the stage off', () => {
    const tool = compileOutputPolicy({ redact: [/k/] }, OUTPUT_POLICY_OFF);
    expect(tool.text).toBe(CONTROLS | BIDI | TAGS);
    expect(tool.uris).toEqual(DEFAULT_URI_SCHEMES);
    expect(tool.redactions).toHaveLength(1);
    expect(compileOutputPolicy(undefined, OUTPUT_POLICY_OFF)).toBe(OUTPUT_POLICY_OFF);
  });

  it.each([
    [{ colour: true }, 'sanitize.colour is not an option'],
    [{ controls: 'yes' }, 'sanitize.controls must be a boolean'],
    [
      { uriSchemes: ['https', 'javascript'] },
      'sanitize.uriSchemes: the "javascript:" scheme runs script',
    ],
    [{ uriSchemes: ['VBScript:'] }, 'sanitize.uriSchemes: the "vbscript:" scheme runs script'],
    [{ uriSchemes: ['not a scheme'] }, 'sanitize.uriSchemes: "not a scheme" is not a URI scheme'],
    [{ uriSchemes: [42] }, 'sanitize.uriSchemes: "" is not a URI scheme'],
    [
      { uriSchemes: 'https' },
      'sanitize.uriSchemes must be an array of schemes, a function or false',
    ],
    [{ refusedUri: 'ignore' }, 'sanitize.refusedUri must be "withhold", "drop" or "error"'],
    [{ redact: /x/ }, 'sanitize.redact must be an array or false'],
    [[], 'sanitize must be an options object or false'],
  ])('refuses %j', (options, message) => {
    expect(() => compileOutputPolicy(options as SanitizeOptions)).toThrow(new TypeError(message));
  });
});

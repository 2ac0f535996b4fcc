import { describe, expect, it } from 'vitest';
import type { Tool } from '../index.js';
import { CliFailure } from './failure.js';
import { inputKeys } from './inputKeys.js';
import { typedArguments } from './typedArguments.js';

const tool = (inputSchema: Record<string, unknown>, name = 't'): Tool => ({
  name,
  inputSchema: { type: 'object', ...inputSchema },
});

/** The failure `typedArguments` throws, or undefined when it accepts the arguments. */
function refusal(
  t: Tool,
  json: Record<string, unknown> | undefined,
  pairs: Array<[string, string]>,
): CliFailure['failure'] | undefined {
  try {
    typedArguments(t, json, pairs);
    return undefined;
  } catch (error) {
    if (error instanceof CliFailure) return error.failure;
    throw error;
  }
}

describe('inputKeys', () => {
  const accepts = (schema: Record<string, unknown>, key: string): boolean =>
    inputKeys({ type: 'object', ...schema }).schemaOf(key) !== undefined;

  it('accepts the declared names only, unless more are explicitly allowed', () => {
    const properties = { steps: { type: 'integer' } };
    expect(accepts({ properties }, 'steps')).toBe(true);
    expect(accepts({ properties }, 'step')).toBe(false);
    expect(accepts({ properties, additionalProperties: false }, 'step')).toBe(false);
    expect(accepts({ properties, additionalProperties: true }, 'step')).toBe(true);
    expect(accepts({ properties, additionalProperties: {} }, 'step')).toBe(true);
    expect(accepts({ properties, unevaluatedProperties: { type: 'string' } }, 'step')).toBe(true);
    expect(accepts({}, 'anything')).toBe(false);
    expect(accepts({ required: ['only'] }, 'only')).toBe(true);
  });

  it('reads allOf, anyOf, oneOf, if/then/else and local $refs at the root', () => {
    const schema = {
      allOf: [{ properties: { a: {} } }, { $ref: '#/$defs/more' }],
      anyOf: [{ properties: { b: {} } }],
      oneOf: [{ properties: { c: {} } }],
      if: { properties: { d: {} } },
      then: { properties: { e: {} } },
      else: { properties: { f: {} } },
      $defs: { more: { properties: { g: { type: 'integer' } } } },
    };
    const keys = inputKeys({ type: 'object', ...schema });
    expect([...keys.names].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(keys.schemaOf('g')).toEqual({ type: 'integer' });
    expect(keys.schemaOf('h')).toBeUndefined();
    // Names inside $defs are not the root's.
    expect(inputKeys({ $defs: { x: { properties: { hidden: {} } } } }).schemaOf('hidden')).toBe(
      undefined,
    );
  });

  it('types a key by the pattern property it matches, or the allowance', () => {
    const keys = inputKeys({
      type: 'object',
      patternProperties: { '^n_': { type: 'number' } },
      additionalProperties: { type: 'boolean' },
    });
    expect(keys.schemaOf('n_1')).toEqual({ type: 'number' });
    expect(keys.schemaOf('other')).toEqual({ type: 'boolean' });
    expect(inputKeys({ patternProperties: { '^x': {} } }).schemaOf('y')).toBeUndefined();
  });

  it('accepts every key of a schema it cannot read whole', () => {
    expect(inputKeys({ $ref: 'https://example.com/schema.json' }).schemaOf('any')).toEqual({});
    expect(inputKeys({ $dynamicRef: '#meta' }).schemaOf('any')).toEqual({});
    expect(inputKeys({ patternProperties: { '(': {} } }).schemaOf('any')).toEqual({});
  });
});

describe('typedArguments refuses keys the tool does not take', () => {
  const longRunning = tool(
    { properties: { steps: { type: 'integer' }, delayMs: { type: 'integer' } } },
    'long_running',
  );

  it('names the key, the option, the closest name and the tool’s names (exit 2)', () => {
    const failure = refusal(longRunning, undefined, [['step', '3']]);
    expect(failure).toEqual({
      kind: 'unknown-argument',
      message:
        'call: tool "long_running" takes no argument "step" (--arg; did you mean "steps"?). Its arguments: steps, delayMs (see toolwire list)',
      exitCode: 2,
      details: { tool: 'long_running', unknown: ['step'], arguments: ['steps', 'delayMs'] },
    });
  });

  it('refuses --json keys the same way, and names every unknown key once', () => {
    const failure = refusal(longRunning, { delay: 1, step: 2, steps: 3 }, [['step', '3']]);
    expect(failure?.message).toBe(
      'call: tool "long_running" takes no arguments "step" (--arg; did you mean "steps"?), "delay" (--json). Its arguments: steps, delayMs (see toolwire list)',
    );
    expect(failure?.details).toMatchObject({ unknown: ['step', 'delay'] });
  });

  it('says so for a tool that takes no arguments', () => {
    expect(refusal(tool({ additionalProperties: false }, 'ping'), { x: 1 }, [])?.message).toBe(
      'call: tool "ping" takes no argument "x" (--json): it takes no arguments',
    );
  });

  it('shows the names a server gave safely, on one line', () => {
    const hostile = tool({ properties: { 'a\nfake line': {}, 'b\x1b[31m': {} } });
    const failure = refusal(hostile, undefined, [['c', '1']]);
    expect(failure?.message).toContain('Its arguments: b\\x1b[31m, a fake line (');
  });

  it('refuses a prototype key a closed schema does not name', () => {
    expect(refusal(longRunning, undefined, [['__proto__', '{}']])?.kind).toBe('unknown-argument');
  });

  it('accepts every key when the tool is not known', () => {
    expect(typedArguments(undefined, { a: 1 }, [['b', '2']])).toEqual({ a: 1, b: 2 });
  });
});

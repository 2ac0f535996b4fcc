import { describe, expect, it } from 'vitest';
import {
  choicesOf,
  initialValue,
  localDateTime,
  problemsOf,
  variantIndex,
  variantLabel,
  variantsOf,
  type Schema,
} from './schemaForm.js';

const when: Schema = {
  oneOf: [
    {
      title: 'At a time',
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time' } },
      required: ['at'],
    },
    {
      type: 'object',
      properties: { minutes: { type: 'integer', minimum: 1 } },
      required: ['minutes'],
    },
  ],
};
const schema: Schema = {
  type: 'object',
  properties: { when, label: { anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] } },
  required: ['when'],
};

describe('variants in a generated form', () => {
  it('are the oneOf/anyOf of schemas, not of const choices', () => {
    expect(variantsOf(when)).toHaveLength(2);
    const titled = { oneOf: [{ const: 'a', title: 'A' }] };
    expect(variantsOf(titled)).toBeUndefined();
    expect(choicesOf(titled)).toEqual([{ value: 'a', label: 'A' }]);
    expect(variantsOf({ type: 'string' })).toBeUndefined();
    const [first, second] = variantsOf(when)!;
    expect(variantLabel(first!, 0)).toBe('At a time');
    expect(variantLabel(second!, 1)).toBe('object with minutes');
    expect(variantLabel({ type: 'null' }, 1)).toBe('null');
    expect(variantLabel({}, 2)).toBe('option 3');
  });

  it('are told apart by the choice made, else by the shape of the value', () => {
    const variants = variantsOf(when)!;
    expect(variantIndex(variants, undefined, undefined)).toBe(0);
    expect(variantIndex(variants, { minutes: 3 }, undefined)).toBe(1);
    expect(variantIndex(variants, {}, 1)).toBe(1);
    expect(variantIndex(variants, {}, 7)).toBe(0); // a choice that no longer exists
  });

  it('are validated as the variant chosen', () => {
    expect(problemsOf(schema, {})).toEqual({ when: 'Required' });
    expect(problemsOf(schema, { when: { minutes: 0 } }, { chosen: { when: 1 } })).toEqual({
      'when.minutes': 'At least 1',
    });
    expect(problemsOf(schema, { when: {} }, { chosen: { when: 1 } })).toEqual({
      'when.minutes': 'Required',
    });
    expect(problemsOf(schema, { when: { at: '2026-11-24T10:00:00.000Z' }, label: 'x' })).toEqual({
      label: 'At least 2 characters',
    });
    expect(problemsOf(schema, { when: { minutes: 5 }, label: null })).toEqual({});
  });

  it('show an RFC 3339 date-time in local time, to the minute', () => {
    const at = new Date(2026, 10, 24, 9, 5);
    expect(localDateTime(at.toISOString())).toBe('2026-11-24T09:05');
    expect(localDateTime('not a date')).toBe('');
  });

  it('reads a schema a server filled with anything without failing (found in review)', () => {
    const odd: Schema = {
      type: 'object',
      properties: { x: null, y: 5, z: { type: 'object', properties: 'none' }, w: ['a'] },
      required: 'x',
      items: 7,
    };
    expect(initialValue(odd)).toEqual({ z: {} });
    expect(problemsOf(odd, {})).toEqual({});
    expect(variantLabel({ type: 'object', properties: [1, 2] }, 0)).toBe('object');
    expect(
      variantIndex(variantsOf({ oneOf: [{ type: 'object', required: 3 }] })!, {}, undefined),
    ).toBe(0);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLES_2025_11_25, hasDefinition, validateDefinition } from '../support/specSchemas.js';

// The strict schemas used to check everything toolwire sends must accept every official example.
describe('strict spec schemas accept the official 2025-11-25 examples', () => {
  const dir = EXAMPLES_2025_11_25;
  for (const type of readdirSync(dir)) {
    for (const file of readdirSync(`${dir}/${type}`)) {
      it(`${type}/${file}`, () => {
        const example = JSON.parse(readFileSync(`${dir}/${type}/${file}`, 'utf8')) as Record<
          string,
          unknown
        >;
        if (hasDefinition('2025-11-25', type)) {
          expect(validateDefinition('2025-11-25', type, example)).toEqual([]);
        } else if (type.endsWith('ResultResponse')) {
          // Wrapper types of the early draft: an envelope around a result type of 2025-11-25.
          expect(validateDefinition('2025-11-25', 'JSONRPCResultResponse', example)).toEqual([]);
          const inner = type.replace(/Response$/, '');
          const resultType = hasDefinition('2025-11-25', inner) ? inner : 'EmptyResult';
          expect(validateDefinition('2025-11-25', resultType, example['result'])).toEqual([]);
        } else {
          // Named error objects of the early draft: the `error` member of an error response.
          expect(type).toMatch(/Error$/);
          expect(validateDefinition('2025-11-25', 'Error', example)).toEqual([]);
        }
      });
    }
  }
});

describe('strict spec schemas reject fields a revision does not define', () => {
  it('rejects Tool.title in 2024-11-05 but accepts it in 2025-06-18', () => {
    const tool = { name: 'a', title: 'A', inputSchema: { type: 'object' } };
    expect(validateDefinition('2024-11-05', 'Tool', tool)).not.toEqual([]);
    expect(validateDefinition('2025-06-18', 'Tool', tool)).toEqual([]);
  });
  it('rejects audio content in a 2024-11-05 result', () => {
    const result = { content: [{ type: 'audio', data: 'AA==', mimeType: 'audio/wav' }] };
    expect(validateDefinition('2024-11-05', 'CallToolResult', result)).not.toEqual([]);
    expect(validateDefinition('2025-03-26', 'CallToolResult', result)).toEqual([]);
  });
});

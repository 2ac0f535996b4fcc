// The attributes of the approval events: the decision and its source, the question with what
// changed (the diff bounded, still JSON, values cut as strings ending with …), nothing else.
import { describe, expect, it } from 'vitest';
import { askedAttributes, boundedDiff, decidedAttributes } from './approvalEvents.js';

const tool = { name: 'write', inputSchema: { type: 'object' as const } };

describe('approval events', () => {
  it('records a decision, its source and why the person was asked', () => {
    expect(
      decidedAttributes({
        step: 'decided',
        decision: 'deny',
        source: 'person',
        reason: 'first-use',
      }),
    ).toEqual({
      'mcp.approval.decision': 'deny',
      'mcp.approval.source': 'person',
      'mcp.approval.reason': 'first-use',
    });
  });

  it('records a question, a rename and fewer confirmations', () => {
    expect(
      askedAttributes(
        {
          step: 'asked',
          reason: 'fewer-confirmations',
          tool,
          fingerprint: 'ab12',
          fewerConfirmations: true,
          renamedFrom: { from: 'old', definition: tool, resemblance: 'similar' },
          changes: [{ field: 'annotations', before: undefined, after: { readOnlyHint: true } }],
        },
        4096,
      ),
    ).toEqual({
      'mcp.approval.reason': 'fewer-confirmations',
      'mcp.approval.fingerprint': 'ab12',
      'mcp.approval.fewer_confirmations': true,
      'mcp.approval.renamed_from': 'old',
      'mcp.approval.resemblance': 'similar',
      'mcp.approval.changed_fields': ['annotations'],
      'mcp.approval.diff': '{"annotations":{"before":null,"after":{"readOnlyHint":true}}}',
    });
  });

  it('bounds the diff, keeps it JSON, and leaves it out when nothing fits', () => {
    const long = `${'😀'.repeat(100)}"quoted"`;
    const changes = [{ field: 'description', before: 'short', after: long }];
    for (const max of [60, 100, 150]) {
      const diff = boundedDiff(changes, max)!;
      expect(diff.length).toBeLessThanOrEqual(max);
      const parsed = JSON.parse(diff) as { description: { before: string; after: string } };
      expect(parsed.description.after).toMatch(/…$/);
      // No half surrogate pair: the text survives a round trip through UTF-8.
      const after = parsed.description.after;
      expect(new TextDecoder().decode(new TextEncoder().encode(after))).toBe(after);
    }
    expect(boundedDiff(changes, 20)).toBeUndefined();
    const attributes = askedAttributes(
      { step: 'asked', reason: 'definition-changed', tool, fingerprint: 'f', changes },
      20,
    );
    expect(attributes['mcp.approval.changed_fields']).toEqual(['description']);
    expect(attributes).not.toHaveProperty('mcp.approval.diff');
  });
});

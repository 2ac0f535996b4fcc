/**
 * Issue 11: a rule with a fractional limit (accepted since issue 8, e.g. `{ limit: 0.5, windowMs:
 * 1000 }`: one call every two seconds) refused every call forever: the bucket's burst was the
 * limit itself, 0.5 tokens, so it never held the one token a call takes. The burst is now at
 * least one call.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server.js';
import { connect } from '../support/harness.js';

describe('a fractional rate limit', () => {
  it('allows one call per window / limit, not none', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('slow', { rateLimit: { limit: 0.5, windowMs: 60_000 } }, () => 'ok');
    const c = await connect(server);
    const first = await c.client.callTool('slow');
    expect(first.isError).toBeUndefined();
    // The next call fits only after 1 / 0.5 windows, two minutes: refused, saying so.
    const second = await c.client.callTool('slow');
    expect(second.isError).toBe(true);
    expect(JSON.stringify(second.content)).toMatch(/retry in 120 s/);
  });
});

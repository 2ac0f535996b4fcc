import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../../../../test/support/specSchemas.js';
import { missingCapability, headerMismatch } from './errors.js';
import { era2026 } from './era.js';
import { serverProfile2026 } from './profile.js';

const SERVER = { name: 'srv', version: '1.0.0', title: 'Server' };

describe('the 2026 era', () => {
  it('has server/discover and subscriptions/listen, not the handshake or 2025 tasks', () => {
    expect(era2026.methods.has('server/discover')).toBe(true);
    expect(era2026.methods.has('subscriptions/listen')).toBe(true);
    for (const gone of ['initialize', 'ping', 'logging/setLevel', 'tasks/list', 'tasks/result'])
      expect(era2026.methods.has(gone), gone).toBe(false);
    expect(era2026.profile('2026-07-28')?.revision).toBe('2026-07-28');
    expect(era2026.profile('2025-11-25')).toBeUndefined();
  });

  it('lists tools without the 2025 tasks field and keeps $schema', () => {
    const profile = serverProfile2026(SERVER);
    const tool = profile.tool({
      name: 't',
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
      execution: { taskSupport: 'optional' },
    });
    expect(tool).toEqual({
      name: 't',
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
    });
    expect(validateDefinition('2026-07-28', 'Tool', tool)).toEqual([]);
  });

  it('puts resultType and the server’s identity on a tool result, keeping the tool’s _meta', () => {
    const profile = serverProfile2026(SERVER);
    const result = profile.callToolResult({
      content: [{ type: 'text', text: 'hi' }],
      _meta: { 'example.com/trace': 'x' },
    });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      resultType: 'complete',
      _meta: {
        'example.com/trace': 'x',
        'io.modelcontextprotocol/serverInfo': { name: 'srv', version: '1.0.0', title: 'Server' },
      },
    });
    expect(validateDefinition('2026-07-28', 'CallToolResult', result)).toEqual([]);
  });

  it('adds the envelope and cache hints to a cacheable result', () => {
    const page = serverProfile2026(SERVER).complete(
      { tools: [] },
      { ttlMs: 60_000, cacheScope: 'public' },
    );
    expect(page).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    expect(validateDefinition('2026-07-28', 'ListToolsResult', page)).toEqual([]);
    // The era's own profile has no server to name.
    expect(era2026.profile('2026-07-28')?.complete({})).toEqual({ resultType: 'complete' });
  });

  it('drops the 2025 tasks capability', () => {
    const caps = serverProfile2026(SERVER).serverCapabilities({
      tools: { listChanged: true },
      tasks: { list: {} },
    });
    expect(caps).toEqual({ tools: { listChanged: true } });
  });

  it('builds the typed errors as the schema defines them', () => {
    const wire = (error: { toJSON(): unknown }) => ({
      jsonrpc: '2.0',
      id: 'a',
      error: error.toJSON(),
    });
    expect(
      validateDefinition(
        '2026-07-28',
        'MissingRequiredClientCapabilityError',
        wire(missingCapability({ elicitation: {} })),
      ),
    ).toEqual([]);
    expect(
      validateDefinition('2026-07-28', 'HeaderMismatchError', wire(headerMismatch('Mcp-Method'))),
    ).toEqual([]);
  });
});

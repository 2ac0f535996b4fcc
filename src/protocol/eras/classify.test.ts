import { describe, expect, it } from 'vitest';
import { CallTool, Discover, Initialize } from '../methods.js';
import { SUPPORTED_PROTOCOL_VERSIONS, featuresOf } from '../versions.js';
import { classifyOpening } from './classify.js';
import { era2025 } from './rev2025/era.js';
import { era2026 } from './rev2026/era.js';
import { initializeResultOf, negotiatedRevision } from './rev2025/handshake.js';

describe('classifyOpening', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

  it('opens the 2026 era with a request whose _meta names a version, or with server/discover', () => {
    const openings: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: CallTool.method, params: { name: 'x', _meta: meta } },
      { jsonrpc: '2.0', id: 1, method: Discover.method },
      // An unsupported version still opens 2026: its front answers -32022, not -32600.
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
      },
    ];
    for (const message of openings) expect(classifyOpening(message)).toBe(era2026);
  });

  it('opens the 2025 era with initialize, a request without a version in _meta, or garbage', () => {
    const openings: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: Initialize.method, params: {} },
      { jsonrpc: '2.0', id: 1, method: CallTool.method, params: { name: 'x' } },
      { jsonrpc: '2.0', id: 1, method: CallTool.method, params: { _meta: { progressToken: 1 } } },
      { jsonrpc: '2.0', id: 1, method: CallTool.method, params: { _meta: 'not an object' } },
      { jsonrpc: '2.0', id: 1, method: 42, params: { _meta: meta } },
      'not even an object',
      undefined,
    ];
    for (const message of openings) expect(classifyOpening(message)).toBe(era2025);
  });
});

describe('the 2025 era', () => {
  it('has the handshake methods and not the 2026 ones', () => {
    expect(era2025.methods.has(Initialize.method)).toBe(true);
    expect(era2025.methods.has(Discover.method)).toBe(false);
  });

  it('hands out one profile per revision, with that revision’s features', () => {
    for (const revision of SUPPORTED_PROTOCOL_VERSIONS) {
      const profile = era2025.profile(revision);
      expect(profile?.revision).toBe(revision);
      expect(profile?.features).toBe(featuresOf(revision));
      expect(era2025.profile(revision)).toBe(profile);
    }
    expect(era2025.profile('2026-07-28')).toBeUndefined();
    expect(era2025.profile('1999-01-01')).toBeUndefined();
  });

  it('cuts tools down to what a revision defines', () => {
    const tool = { name: 't', title: 'T', inputSchema: { type: 'object' as const } };
    expect(era2025.profile('2024-11-05')?.tool(tool)).toEqual({
      name: 't',
      inputSchema: { type: 'object' },
    });
    expect(era2025.profile('2025-06-18')?.tool(tool)).toMatchObject({ title: 'T' });
  });

  it('negotiates the client’s revision when enabled, else the newest enabled', () => {
    const enabled = ['2025-03-26', '2025-06-18'] as const;
    expect(negotiatedRevision('2025-03-26', enabled)).toBe('2025-03-26');
    expect(negotiatedRevision('2025-11-25', enabled)).toBe('2025-06-18');
    expect(negotiatedRevision(42, enabled)).toBe('2025-06-18');
  });

  it('builds the initialize result of a revision', () => {
    const profile = era2025.profile('2024-11-05');
    if (!profile) throw new Error('no profile');
    const result = initializeResultOf(profile, {
      serverInfo: { name: 's', version: '1', title: 'S' },
      capabilities: { tools: { listChanged: true } },
      instructions: 'hi',
    });
    expect(result).toEqual({
      protocolVersion: '2024-11-05',
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 's', version: '1' },
      instructions: 'hi',
    });
  });
});

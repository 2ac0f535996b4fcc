import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApprovedDefinition } from '../client.js';
import { ApprovalsFile } from './approvalsFile.js';

const dir = mkdtempSync(join(tmpdir(), 'toolwire-approvals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const approved = (name: string): ApprovedDefinition => ({
  fingerprint: `sha256-${name}`,
  definition: { name, inputSchema: { type: 'object' } },
  approvedAt: '2026-11-27T06:00:00.000Z',
});

describe('the approvals file (found in review)', () => {
  it('keeps every "always allow" given at the same time', async () => {
    const file = new ApprovalsFile(join(dir, 'together.json'));
    const store = file.forServer('https://notes.example/mcp');
    const names = Array.from({ length: 8 }, (_, i) => `tool_${i}`);
    await Promise.all(names.map(async (n) => store.set(n, approved(n))));
    const kept = (await file.read()).servers['https://notes.example/mcp'] ?? {};
    expect(Object.keys(kept).sort()).toEqual(names);
  });

  it('keeps a tool named __proto__, and finds no approval for constructor', async () => {
    const file = new ApprovalsFile(join(dir, 'names.json'));
    const store = file.forServer('srv');
    expect(await store.get('constructor')).toBeUndefined();
    await store.set('__proto__', approved('__proto__'));
    expect(await new ApprovalsFile(file.path).forServer('srv').get('__proto__')).toEqual(
      approved('__proto__'),
    );
    expect(await store.get('constructor')).toBeUndefined();
    expect(await file.forServer('__proto__').get('toString')).toBeUndefined();
  });
});

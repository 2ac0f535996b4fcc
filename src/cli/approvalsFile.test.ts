import { spawn } from 'node:child_process';
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

  it('keeps what several processes change at once (issue 19: a lock across processes)', async () => {
    const path = join(dir, 'processes.json');
    const script = `
      const { ApprovalsFile } = await import(${JSON.stringify(new URL('./approvalsFile.ts', import.meta.url).href)});
      const [writer, startAt] = process.argv.slice(1);
      const file = new ApprovalsFile(${JSON.stringify(path)});
      // All start together, once loaded: their changes overlap.
      await new Promise((resolve) => setTimeout(resolve, Number(startAt) - Date.now()));
      for (let i = 0; i < 6; i++) {
        await file.forServer('srv').set('t' + writer + '_' + i, {
          fingerprint: 'f', definition: { name: 'x', inputSchema: { type: 'object' } }, approvedAt: 'now',
        });
        await file.setTrusted('https://s' + writer + '_' + i + '.example/mcp', true);
      }`;
    const startAt = Date.now() + 4000;
    const codes = await Promise.all(
      [0, 1, 2].map(
        (writer) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(
              process.execPath,
              [
                '--import',
                'tsx',
                '--input-type=module',
                '-e',
                script,
                String(writer),
                String(startAt),
              ],
              { stdio: 'inherit', timeout: 60_000 },
            );
            child.once('close', resolve);
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0]);
    const doc = await new ApprovalsFile(path).read();
    expect(Object.keys(doc.servers['srv'] ?? {})).toHaveLength(18);
    expect(Object.keys(doc.trusted ?? {})).toHaveLength(18);
  }, 90_000);

  it('keeps which servers are trusted, and says when nothing changed', async () => {
    const file = new ApprovalsFile(join(dir, 'trust.json'));
    expect(await file.isTrusted('https://a.example/mcp')).toBe(false);
    expect(await file.setTrusted('https://a.example/mcp', true)).toBe(true);
    expect(await file.setTrusted('https://a.example/mcp', true)).toBe(false);
    expect(await new ApprovalsFile(file.path).isTrusted('https://a.example/mcp')).toBe(true);
    expect(await file.setTrusted('https://a.example/mcp', false)).toBe(true);
    expect((await file.read()).trusted).toBeUndefined();
  });
});

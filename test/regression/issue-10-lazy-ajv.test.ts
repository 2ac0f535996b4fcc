/**
 * Issue 10: importing toolwire loaded Ajv (about 35 ms and 11 MB of start-up) even when every
 * schema is Zod. Ajv now loads when a JSON Schema is first compiled.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { ROOT } from '../support/paths.js';

/** Runs an ES module snippet in a fresh Node process at the repository root; returns its stdout. */
function probe(code: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

const AJV_LOADED = `Object.keys((await import('node:module')).createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/ajv/'))`;

describe('Ajv loads on first use', () => {
  it('is not loaded by importing toolwire and registering Zod tools', () => {
    expect(
      probe(`
        import { McpServer } from 'toolwire';
        import 'toolwire/stdio';
        import * as z from 'zod';
        const server = new McpServer({ name: 'z', version: '1' });
        server.registerTool('t', { inputSchema: z.object({ a: z.string() }) }, () => 'ok');
        console.log(${AJV_LOADED});
      `),
    ).toBe('false');
  });

  it('is loaded, synchronously, by the first JSON Schema tool, which is checked at registration', () => {
    expect(
      probe(`
        import { McpServer } from 'toolwire';
        const server = new McpServer({ name: 'j', version: '1' });
        server.registerTool('t', { inputSchema: { type: 'object' } }, () => 'ok');
        let refused = false;
        try {
          server.registerTool('u', { inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } }, () => 'ok');
        } catch { refused = true; }
        console.log(${AJV_LOADED}, refused);
      `),
    ).toBe('true true');
  });

  it('asks for preloadJsonSchemaSupport() where no synchronous require exists, then works', async () => {
    vi.resetModules();
    const host = process as unknown as { getBuiltinModule?: unknown };
    const original = host.getBuiltinModule;
    host.getBuiltinModule = undefined;
    try {
      const loader = await import('../../src/protocol/ajvLoader.js');
      expect(() => loader.ajvModules()).toThrow(/await preloadJsonSchemaSupport\(\)/);
      await loader.preloadJsonSchemaSupport();
      const modules = loader.ajvModules();
      const ajv = new modules.Ajv2020({ strict: false });
      modules.addFormats(ajv);
      expect(ajv.compile({ type: 'string', format: 'email' })('a@b.example')).toBe(true);
    } finally {
      host.getBuiltinModule = original;
      vi.resetModules();
    }
  });
});

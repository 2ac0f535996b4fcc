/**
 * Issue 20: `toolwire serve` refused a module without a usable export by naming the exports it
 * looked for ("exports no McpServer as "default" or "server""), not what to write; and a module
 * that connects its server itself (the README's quick-start server, a program) kept the process
 * running after the refusal, so a host waited for a server that never came. The refusal now says
 * the shape serve expects (`export default` an McpServer or a function returning one, or
 * `--export <name>`), lists what the module does export, and the process ends (exit 2).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../support/paths.js';

const work = mkdtempSync(join(tmpdir(), 'toolwire-serve-export-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const lib = (entry: string) => pathToFileURL(`${ROOT}dist/${entry}.js`).href;

/** Writes a module into the work folder; its path. */
function module(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

/** A tool server as the old quick start wrote it: it connects itself and exports nothing. */
const SELF_CONNECTING = `import { McpServer } from '${lib('index')}';
import { StdioServerTransport } from '${lib('stdio')}';

const server = new McpServer({ name: 'weather', version: '1.0.0' });
server.registerTool('forecast', {}, () => ({ content: [{ type: 'text', text: 'sunny' }] }));
await server.connect(new StdioServerTransport());
`;

/**
 * Runs `toolwire serve ...args` with its stdin left open (as a host starts a server) for at most
 * 10 s; its exit status (null if it was still running then) and stderr.
 */
function serve(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { cwd: work });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('serve says what a module must export', () => {
  it('refuses a program that connects its server itself, says what to write, and exits', async () => {
    module('server.mjs', SELF_CONNECTING);
    const run = await serve('server.mjs');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'serve: server.mjs exports no McpServer (it exports nothing): export default an McpServer ' +
        '(or a function returning one), as in "export default server;", or name the export with ' +
        '--export <name>. A module that connects its server itself (server.connect(...)) is a ' +
        'program: run it with node (or tsx) instead of toolwire serve\n',
    );
  });

  it('lists the exports of a module whose exports hold no server', async () => {
    module('helpers.mjs', 'export const city = "Lisbon";\nexport function forecast() {}\n');
    const run = await serve('helpers.mjs');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('exports no McpServer (its exports: city, forecast)');
    expect(run.stderr).toContain('export default an McpServer (or a function returning one)');
    expect(run.stderr).not.toContain('is a program');
  });

  it('names the --export it looked for, and how to use the default one', async () => {
    module(
      'tools.mjs',
      `import { McpServer } from '${lib('index')}';\nexport default new McpServer({ name: 't', version: '1' });\n`,
    );
    const run = await serve('tools.mjs', '--export', 'tools');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'serve: tools.mjs exports no McpServer as "tools" (its exports: default): export the ' +
        'McpServer (or a function returning one) under that name, or leave out --export to serve ' +
        'the default export\n',
    );
  });
});

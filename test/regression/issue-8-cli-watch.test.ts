// Issue 8: `serve --watch` restarts the server when its files change, for a development loop:
// over HTTP on the same port, over stdio behind a relay that keeps the client's connection (the
// client is told the tool list changed). One line on stderr per restart; stdout stays MCP only.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { StdioClientTransport } from '../../src/stdio.js';
import { startToolwire, toolwire, until } from '../support/cliRun.js';
import { CLI, ROOT } from '../support/paths.js';

/** A server module importing a second file, which names the tools; both in a fresh folder. */
function project(): { dir: string; module: string; setTools: (names: string[]) => void } {
  const dir = mkdtempSync(join(tmpdir(), 'toolwire-watch-'));
  const toolwireUrl = pathToFileURL(`${ROOT}dist/index.js`).href;
  const module = join(dir, 'server.mjs');
  writeFileSync(
    module,
    `import { McpServer } from ${JSON.stringify(toolwireUrl)};
import { names } from './tools.mjs';
const server = new McpServer({ name: 'watched', version: '1' });
for (const name of names) server.registerTool(name, {}, () => 'I am ' + name);
export default server;
`,
  );
  const setTools = (names: string[]) =>
    writeFileSync(join(dir, 'tools.mjs'), `export const names = ${JSON.stringify(names)};\n`);
  setTools(['one']);
  return { dir, module, setTools };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

const restarts = (stderr: string) =>
  stderr.match(/tools\.mjs changed: restarting the server\n/g)?.length ?? 0;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('serve --watch', () => {
  it('over HTTP: restarts on the same port and serves the new tool set', async () => {
    const { module, setTools } = project();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const supervisor = startToolwire(['serve', module, '--http', String(port), '--watch']);
    cleanups.push(async () => {
      supervisor.kill('SIGKILL');
      await supervisor.exited;
    });
    const serving = () => supervisor.output().stderr.split(`serving watched on ${url}`).length - 1;
    await until(() => serving() === 1, 15_000, 'the server to listen');
    const names = () =>
      (
        JSON.parse(toolwire('list', '--json-output', url).stdout) as {
          tools: Array<{ name: string }>;
        }
      ).tools.map((t) => t.name);
    expect(names()).toEqual(['one']);
    // Three writes in a row: one restart once the changes settle.
    setTools(['two']);
    setTools(['two', 'three']);
    setTools(['two', 'three']);
    await until(() => serving() === 2, 15_000, 'the restarted server to listen');
    expect(restarts(supervisor.output().stderr)).toBe(1);
    expect(names()).toEqual(['two', 'three']);
    expect(toolwire('call', '--yes', 'three', url).stdout).toBe('I am three\n');
    supervisor.kill('SIGTERM');
    const end = await supervisor.exited;
    expect(end.code).toBe(0);
    expect(end.stdout).toBe('');
    // The server went with it: the port is free.
    expect(toolwire('list', url).code).toBe(3);
  });

  it('over stdio: the client keeps its connection and hears that the tools changed', async () => {
    const { module, setTools } = project();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', module, '--watch'],
      stderr: 'pipe',
    });
    const changes: string[][] = [];
    const errors: Error[] = [];
    const client = new McpClient(
      { name: 'watch-test', version: '1' },
      {
        protocolEra: 'legacy',
        onToolsChanged: (tools) => changes.push(tools.map((t) => t.name)),
        onerror: (e) => errors.push(e),
      },
    );
    await client.connect(transport);
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    cleanups.push(() => client.close());
    expect((await client.listTools()).map((t) => t.name)).toEqual(['one']);
    expect(await client.callTool('one')).toMatchObject({ content: [{ text: 'I am one' }] });
    setTools(['two']);
    await until(() => changes.some((c) => c.includes('two')), 15_000, 'the tool list to change');
    expect(restarts(stderr)).toBe(1);
    expect(await client.callTool('two')).toMatchObject({ content: [{ text: 'I am two' }] });
    // A second round works the same way.
    setTools(['three']);
    await until(() => changes.some((c) => c.includes('three')), 15_000, 'the second change');
    expect(await client.callTool('three')).toMatchObject({ content: [{ text: 'I am three' }] });
    expect(restarts(stderr)).toBe(2);
    expect(errors).toEqual([]); // nothing but MCP messages ever reached the client
    await client.close();
    expect(transport.exitStatus).toMatchObject({ code: 0, unexpected: false });
  });
});

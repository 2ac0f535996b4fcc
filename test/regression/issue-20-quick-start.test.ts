/**
 * Issue 20: the path from the README to a working program. `npm install toolwire zod` failed
 * (the package is not published) and the host configurations ran `npx -y toolwire`, which fails
 * the same way and would run a stranger's package of that name later; the quick start did not
 * run as written (CommonJS by `npm init` defaults, so top-level await failed; no way to run
 * TypeScript on Node 20; a client starting a `server.js` that did not exist); no example had the
 * `export default` that `toolwire serve` loads; and the quick-start tool was unannotated, so the
 * first `call` was refused. This test does what the README says, as it is written: packs the
 * package (Install), makes a new project with the quick start's commands, copies its code blocks
 * there verbatim, runs them and the commands shown beside them, and starts the servers of the
 * host configurations from another folder (issue 21: those are in docs/getting-started.md, the
 * manual's page that continues the quick start).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../support/paths.js';
import { codeBlocks, manual, markedBlock, page, readme, section } from '../support/readme.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const QUICK_START_FILES = ['tools.ts', 'server.ts', 'client.ts'];
const version = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string })
  .version;
const text = readme();
/** The manual's page with the host configurations (Use it from a host). */
const guide = page('docs/getting-started.md');

/**
 * npm's own variables (set when this runs under `npm test`) must not steer the nested npm runs;
 * these only keep them quiet and off the network where the cache has what they need.
 */
const env: Record<string, string> = {
  ...(Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
  ) as Record<string, string>),
  PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_prefer_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

let work = '';
let project = '';
let elsewhere = '';
let tarballName = '';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a shell command line as the README shows it, in `cwd`, without a terminal. */
function sh(line: string, cwd = project, timeout = 60_000): Run {
  const r = spawnSync('bash', ['-e', '-c', line], { cwd, env, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: `${r.stderr}${r.error ?? ''}` };
}

/** The commands of a shell block (comment lines and blank ones left out). */
const commands = (block: string) =>
  block.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));

/** The output a shell block shows in its comment lines (`# ...`). */
const shownOutput = (block: string) =>
  block
    .split('\n')
    .filter((line) => line.startsWith('# '))
    .map((line) => `${line.slice(2)}\n`)
    .join('');

/** `line` with `flags` put before its `--` (the options of `toolwire call`). */
const withFlags = (line: string, ...flags: string[]) =>
  line.replace(' -- ', ` ${flags.join(' ')} -- `);

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'toolwire-quick-start-'));
  elsewhere = join(work, 'elsewhere');
  mkdirSync(elsewhere);
  env['XDG_CONFIG_HOME'] = join(work, 'config');
  // Install: `npm pack` in the clone (this checkout; npm runs the prepare build, skipped when it
  // is up to date).
  const pack = spawnSync(NPM, ['pack', '--json', '--pack-destination', work], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  tarballName = (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename;
  // Quick start: its setup commands, with the tarball where the README has a placeholder.
  const setup = markedBlock(text, 'quick-start: setup.sh').text;
  const placeholder = `/path/to/toolwire/${tarballName}`;
  if (!setup.includes(placeholder))
    throw new Error(`the quick start does not install ${placeholder}:\n${setup}`);
  const run = sh(setup.replaceAll(placeholder, join(work, tarballName)), work, 240_000);
  if (run.code !== 0) throw new Error(`the quick start's setup failed:\n${run.stderr}`);
  project = join(work, 'weather');
  for (const file of QUICK_START_FILES)
    writeFileSync(join(project, file), markedBlock(text, `quick-start: ${file}`).text);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('Install', () => {
  it('says the package is not on the registry, and its first route packs a clone', () => {
    const install = section(text, 'Install');
    expect(install).toContain('toolwire is not on the npm registry yet');
    const first = codeBlocks(install)[0]!;
    expect(first.marker).toBe('install: pack');
    expect(commands(first.text).map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      'git clone',
      'cd toolwire',
      'npm ci',
      'npm pack',
    ]);
    expect(first.text).toContain(`writes ${tarballName}`);
    expect(install).toContain(`npm install /path/to/toolwire/${tarballName} zod`);
    expect(tarballName).toBe(`toolwire-${version}.tgz`);
  });

  it('never installs or runs the name from the registry', () => {
    // What a reader copies: the code blocks, of the README and of every page of the manual.
    const blocks = manual().flatMap((p) => codeBlocks(p.text));
    const code = blocks.map((block) => block.text).join('');
    expect(code).not.toMatch(/npm (install|i|add)( -g)? toolwire\b(?![-/])/);
    expect(code).not.toMatch(/npx (-y |--yes )toolwire/);
    // No host configuration starts toolwire through npx.
    const configs = blocks.filter((b) => b.lang === 'json');
    const servers = configs.flatMap((block) => {
      const parsed = JSON.parse(block.text) as Record<string, unknown>;
      const entries = (parsed['mcpServers'] ?? parsed['servers'] ?? {}) as Record<
        string,
        { command?: string; args?: string[] }
      >;
      return Object.values(entries);
    });
    expect(servers.length).toBeGreaterThan(3);
    for (const server of servers)
      if (server.command === 'npx')
        expect(server.args, server.args?.join(' ')).not.toContain('toolwire');
  });

  it('installs the tarball into a new project: the library and its toolwire command', () => {
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules/toolwire/package.json'), 'utf8'),
    ) as { version: string; bin: Record<string, string> };
    expect(installed.version).toBe(version);
    expect(existsSync(join(project, 'node_modules/.bin/toolwire'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      type?: string;
      dependencies: Record<string, string>;
    };
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['toolwire', 'tsx', 'zod']);
  });
});

describe('Quick start', () => {
  it('runs as written: the client starts server.ts, lists and calls the tool', () => {
    const block = markedBlock(text, 'quick-start: run.sh').text;
    expect(commands(block)).toEqual(['npx tsx client.ts']);
    const run = sh(commands(block)[0]!);
    expect(run).toMatchObject({ code: 0, stdout: shownOutput(block) });
    expect(run.stdout).toBe("[ 'forecast' ]\n{ city: 'Lisbon', celsius: 21.5 }\n");
  }, 120_000);

  it('is examples/quickstart of the repository', () => {
    for (const file of QUICK_START_FILES)
      expect(readFileSync(`${ROOT}examples/quickstart/${file}`, 'utf8'), file).toBe(
        markedBlock(text, `quick-start: ${file}`).text,
      );
  });

  it('serves tools.ts, its export default, with toolwire serve', () => {
    expect(markedBlock(text, 'quick-start: tools.ts').text).toContain('export default server;');
    const [list] = commands(markedBlock(text, 'quick-start: try.sh').text);
    expect(list).toBe('npx toolwire list -- npx toolwire serve tools.ts');
    const run = sh(list!);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^forecast\n {2}Tomorrow's forecast for a city\n/);
    expect(run.stdout).toContain('read-only');
  }, 120_000);

  it('refuses the program server.ts with toolwire serve, saying what it expects', async () => {
    const child = spawn('npx', ['toolwire', 'serve', 'server.ts'], { cwd: project, env });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((r) => child.once('close', r));
    clearTimeout(timer);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'serve: server.ts exports no McpServer (it exports nothing): export default an McpServer',
    );
  }, 60_000);

  it('calls the read-only tool as each choice it names allows', () => {
    const block = markedBlock(text, 'quick-start: try.sh').text;
    const call = commands(block)[1]!;
    expect(call).toBe(
      'npx toolwire call forecast --arg city=Lisbon -- npx toolwire serve tools.ts',
    );
    expect(markedBlock(text, 'quick-start: tools.ts').text).toContain(
      'annotations: { readOnlyHint: true }',
    );
    const answer = shownOutput(block);
    expect(answer).toBe('{"city":"Lisbon","celsius":21.5}\n');
    // As written, without a terminal: the question cannot be asked, so the call is refused.
    const unasked = sh(call);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('tool "forecast" needs confirmation');
    // The flags the quick start names, on the same command (the installed bin npx would run:
    // each npx costs a second npm start).
    const variant = (...flags: string[]) =>
      withFlags(call, ...flags).replaceAll('npx toolwire', 'node_modules/.bin/toolwire');
    expect(sh(variant('--yes'))).toEqual({ code: 0, stdout: answer, stderr: '' });
    // Trusting one's own server: its read-only tool runs unasked, for one call or from now on.
    expect(sh(variant('--trust-annotations'))).toEqual({
      code: 0,
      stdout: answer,
      stderr: '',
    });
    const quick = section(text, 'Quick start').replaceAll(/\s+/g, ' ');
    const trust = /`(npx toolwire approvals trust -- npx toolwire serve tools\.ts)`/.exec(quick);
    expect(trust, 'the quick start names approvals trust').not.toBeNull();
    expect(sh(trust![1]!).code).toBe(0);
    expect(sh(call)).toEqual({ code: 0, stdout: answer, stderr: '' });
  }, 180_000);
});

describe('Use it from a host', () => {
  /** The `weather` server of a host configuration, with its placeholders filled in. */
  function weather(marker: string, placeholder: string): { command: string; args: string[] } {
    const config = JSON.parse(markedBlock(guide, `host: ${marker}`).text) as Record<
      string,
      Record<string, { command: string; args: string[] }>
    >;
    const server = (config['mcpServers'] ?? config['servers'])!['weather']!;
    return {
      command: server.command,
      args: server.args.map((arg) => arg.replaceAll(placeholder, project)),
    };
  }

  it.each([
    ['claude_desktop_config.json', '/absolute/path/to/weather'],
    ['.vscode/mcp.json', '${workspaceFolder}'],
  ])(
    '%s starts the installed toolwire from another folder',
    (marker, placeholder) => {
      const server = weather(marker, placeholder);
      expect(server.command).toBe('node');
      expect(server.args[0]).toBe(join(project, 'node_modules/toolwire/dist/cli/main.js'));
      // The bin of the package, as its package.json names it.
      const installed = JSON.parse(
        readFileSync(join(project, 'node_modules/toolwire/package.json'), 'utf8'),
      ) as { bin: Record<string, string> };
      expect(join(project, 'node_modules/toolwire', installed.bin['toolwire']!)).toBe(
        server.args[0],
      );
      const r = spawnSync(process.execPath, [CLI, 'list', '--', server.command, ...server.args], {
        cwd: elsewhere,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^forecast\n/);
    },
    120_000,
  );
});

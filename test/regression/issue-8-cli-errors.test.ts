// Issue 8: errors name what failed: the URL and errno of a connection failure (refused, TLS), the
// exit code or signal of a stdio server that died and the end of its stderr (as JSON; on the
// terminal, its stderr passed through once: issue 20); an unknown tool is a usage error (exit 2)
// listing the tools, closest first; --json-output prints a JSON error object on stdout for every
// failure.
import { describe, expect, it } from 'vitest';
import { toolwire, useHttpServer } from '../support/cliRun.js';
import { EVERYTHING } from '../support/paths.js';

const server = ['--', process.execPath, EVERYTHING];
const dying = (body: string) => ['--', process.execPath, '-e', body];

describe('a stdio server that dies', () => {
  it('is named with its exit code and the last lines of its stderr', () => {
    const r = toolwire(
      'list',
      ...dying(
        "console.error('loading config'); console.error('boom: no such file'); process.exit(7)",
      ),
    );
    expect(r.code).toBe(3);
    // Its stderr reaches the terminal as it is written, once (issue 20: the error repeated its
    // end under the exit status; --json-output carries it, below) ...
    expect(r.stderr.startsWith('loading config\nboom: no such file\n')).toBe(true);
    expect(r.stderr.split('\n').filter((line) => line.endsWith('boom: no such file'))).toEqual([
      'boom: no such file',
    ]);
    // ... and the error says the exit status, the command line quoted as a shell would need it.
    expect(r.stderr).toContain(
      `toolwire: the server (${process.execPath} -e 'console.error('\\''loading config'\\'');`,
    );
    expect(r.stderr).toMatch(/exited with code 7; its stderr is above\n$/);
  });

  it('is named with the signal that killed it, and reported as JSON', () => {
    const r = toolwire(
      'call',
      'x',
      '--json-output',
      ...dying("console.error('about to crash'); process.kill(process.pid, 'SIGKILL')"),
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('was killed by SIGKILL');
    expect(JSON.parse(r.stdout)).toEqual({
      error: {
        kind: 'server-exited',
        message: expect.stringContaining('was killed by SIGKILL') as unknown,
        exitCode: null,
        signal: 'SIGKILL',
        stderr: 'about to crash',
      },
    });
  });

  it('quotes a bounded tail: the last 20 lines', () => {
    const r = toolwire(
      'list',
      '--json-output',
      ...dying('for (let i = 1; i <= 100; i++) console.error("line " + i); process.exit(1)'),
    );
    const { error } = JSON.parse(r.stdout) as { error: { stderr: string; exitCode: number } };
    expect(error.exitCode).toBe(1);
    expect(error.stderr.split('\n')).toEqual(
      Array.from({ length: 20 }, (_, i) => `line ${81 + i}`),
    );
  });

  it('that cannot be started is named with the errno', () => {
    const r = toolwire('list', '--json-output', '--', '/no/such/server');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^toolwire: Could not start \/no\/such\/server: .*ENOENT/);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { kind: 'connection' } });
  });
});

describe('an HTTP server', () => {
  const httpUrl = useHttpServer(EVERYTHING);

  it('spoken to in TLS that does not speak it: the URL and the TLS error code', () => {
    const tls = httpUrl().replace(/^http:/, 'https:');
    const r = toolwire('list', '--json-output', tls);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`POST ${tls}: `);
    const { error } = JSON.parse(r.stdout) as {
      error: { kind: string; url: string; errno: string };
    };
    expect(error).toMatchObject({ kind: 'connection', url: tls });
    expect(error.errno).toMatch(/^ERR_SSL_|^ERR_TLS_/);
    expect(r.stderr).toContain(error.errno);
    expect(r.stderr).not.toContain('.c:'); // no OpenSSL source file names
  });

  it('given arguments that do not fit the tool: a usage error, also as JSON', () => {
    const r = toolwire(
      'call',
      '--yes',
      'add',
      '--json',
      '{"a":1,"b":2}',
      '--json-output',
      httpUrl(),
    );
    expect(r.code).toBe(0);
    const bad = toolwire('call', '--yes', 'add', '--arg', 'a=x', '--json-output', httpUrl());
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toEqual({
      error: { kind: 'usage', message: 'call: --arg a: expected number, got "x"' },
    });
  });
});

describe('an unknown tool', () => {
  it('is a usage error listing the tools, the closest first', () => {
    const r = toolwire('call', '--yes', 'ad', ...server);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^call: unknown tool "ad"\. Tools: add, /);
    expect(r.stderr).toMatch(/, and \d+ more \(see toolwire list\)\n$/);
    const typo = toolwire('call', '--yes', 'wether', '--json-output', ...server);
    expect(typo.code).toBe(2);
    const { error } = JSON.parse(typo.stdout) as { error: { kind: string; tools: string[] } };
    expect(error.kind).toBe('unknown-tool');
    expect(error.tools[0]).toBe('weather');
    expect(error.tools).toContain('long_running');
  });
});

describe('--json-output', () => {
  it('prints a JSON error object for usage errors too, with the exit status unchanged', () => {
    const r = toolwire('call', '--yes', '--json-output', '--bogus', 'x', ...server);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { kind: 'usage', message: 'call: unknown option --bogus (see toolwire call --help)' },
    });
  });

  it('prints the result of a tool error (isError) as it is, exit 1', () => {
    const r = toolwire('call', '--yes', 'fail', '--json-output', ...server);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ isError: true });
  });
});

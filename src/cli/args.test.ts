import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from './args.js';
import { typedArguments } from './typedArguments.js';
import { progressBar } from './progressBar.js';
import { serverIdentity } from './serverIdentity.js';

describe('parseCommand', () => {
  it('parses serve, list and call', () => {
    expect(parseCommand(['serve', 'srv.js'])).toEqual({
      kind: 'serve',
      module: 'srv.js',
      exportName: undefined,
      mode: { kind: 'stdio' },
      watch: false,
    });
    expect(
      parseCommand([
        'serve',
        'srv.js',
        '--http',
        '8080',
        '--stateless',
        '--allowed-host',
        'mcp.example.com',
      ]),
    ).toMatchObject({
      mode: {
        kind: 'http',
        port: 8080,
        host: '127.0.0.1',
        stateless: true,
        allowedHosts: ['mcp.example.com'],
        redis: undefined,
      },
    });
    expect(
      parseCommand(['serve', 'srv.js', '--http', '0', '--redis', 'redis://127.0.0.1:6379/2']),
    ).toMatchObject({
      mode: { kind: 'http', redis: { url: 'redis://127.0.0.1:6379/2', keyPrefix: undefined } },
    });
    expect(
      parseCommand([
        'serve',
        's.js',
        '--http',
        '0',
        '--redis',
        'rediss://r:1',
        '--redis-prefix',
        'a:',
      ]),
    ).toMatchObject({ mode: { redis: { url: 'rediss://r:1', keyPrefix: 'a:' } } });
    expect(
      parseCommand(['list', 'http://127.0.0.1:3000/mcp', '--header', 'Authorization: Bearer x']),
    ).toEqual({
      kind: 'list',
      target: {
        kind: 'url',
        url: 'http://127.0.0.1:3000/mcp',
        headers: { authorization: 'Bearer x' },
        allowLoopbackHttp: false,
      },
      jsonOutput: false,
      era: 'auto',
      maxMessageBytes: undefined,
      audit: undefined,
    });
    expect(parseCommand(['list', '--era', 'legacy', 'http://127.0.0.1:3000/mcp'])).toMatchObject({
      era: 'legacy',
    });
    // A task runs in either era (the tasks extension on 2026-07-28).
    expect(parseCommand(['call', 'add', '--task', '--', 'srv'])).toMatchObject({ era: 'auto' });
    expect(parseCommand(['call', 'add', '--task', '--era', 'modern', '--', 'srv'])).toMatchObject({
      era: 'modern',
    });
    expect(() =>
      parseCommand(['call', 'add', '--era', 'newest', 'http://127.0.0.1:3000/mcp']),
    ).toThrow(/--era must be one of legacy, modern, auto/);
    expect(parseCommand(['call', 'add', 'https://example.com/mcp', '--arg', 'a=1'])).toMatchObject({
      tool: 'add',
      target: { kind: 'url', url: 'https://example.com/mcp' },
    });
    expect(
      parseCommand(['list', 'http://127.0.0.1:3000/mcp', '--allow-loopback-http']),
    ).toMatchObject({ target: { kind: 'url', allowLoopbackHttp: true } });
    expect(() => parseCommand(['list', '--allow-loopback-http', '--', 'node', 's.js'])).toThrow(
      'list: --allow-loopback-http applies to URLs only',
    );
    expect(parseCommand(['login', 'https://example.com/mcp', '--scope', 'a b'])).toMatchObject({
      kind: 'login',
      scopes: ['a', 'b'],
      client: { kind: 'dynamic' },
    });
    expect(() => parseCommand(['login', 'https://example.com/mcp', '--', 'x'])).toThrow(
      'login: takes a server URL, not a command after "--"',
    );
    expect(parseCommand(['serve', 'srv.js', '--export', 'make'])).toMatchObject({
      exportName: 'make',
    });
    expect(parseCommand(['list', '--', 'node', 's.js', '--verbose'])).toEqual({
      kind: 'list',
      target: { kind: 'command', command: 'node', args: ['s.js', '--verbose'] },
      jsonOutput: false,
      era: 'auto',
      maxMessageBytes: undefined,
      audit: undefined,
    });
    expect(
      parseCommand([
        'call',
        'add',
        '--arg',
        'a=1',
        '--arg',
        'b=x=y',
        '--json',
        '{"c":true}',
        '--timeout',
        '500',
        '--json-output',
        '--',
        'srv',
      ]),
    ).toEqual({
      kind: 'call',
      tool: 'add',
      target: { kind: 'command', command: 'srv', args: [] },
      pairs: [
        ['a', '1'],
        ['b', 'x=y'],
      ],
      json: { c: true },
      jsonOutput: true,
      era: 'auto',
      timeoutMs: 500,
      task: false,
      maxMessageBytes: undefined,
      confirm: 'unless-read-only',
      trustAnnotations: false,
      yes: false,
      audit: undefined,
    });
    expect(
      parseCommand([
        'call',
        'rm',
        '--confirm',
        'always',
        '-y',
        '--audit',
        'a.jsonl',
        'https://h/mcp',
      ]),
    ).toMatchObject({
      confirm: 'always',
      yes: true,
      audit: 'a.jsonl',
    });
    expect(() => parseCommand(['call', 'rm', '--confirm', 'sometimes', 'https://h/mcp'])).toThrow(
      'call: --confirm takes always, unless-read-only, never (got "sometimes")',
    );
    expect(parseCommand(['approvals', 'revoke', '-- "node" "s.js"', 'rm'])).toEqual({
      kind: 'approvals',
      action: 'revoke',
      server: '-- "node" "s.js"',
      tool: 'rm',
      jsonOutput: false,
    });
    expect(parseCommand([])).toEqual({ kind: 'help', topic: undefined });
  });

  it('takes the server of approvals revoke as list and call take it (issue 20)', () => {
    const node = serverIdentity({ kind: 'command', command: 'node', args: ['s.js'] });
    const revoke = (...words: string[]) => parseCommand(['approvals', 'revoke', ...words]);
    expect(revoke('rm', '--', 'node', 's.js')).toMatchObject({ server: node, tool: 'rm' });
    expect(revoke('--', 'node', 's.js')).toMatchObject({ server: node, tool: undefined });
    expect(revoke('--json-output', '--', 'node', 's.js', '--json-output')).toMatchObject({
      server: serverIdentity({ kind: 'command', command: 'node', args: ['s.js', '--json-output'] }),
      jsonOutput: true,
    });
    expect(revoke('https://h/mcp#x', 'rm')).toMatchObject({ server: 'https://h/mcp', tool: 'rm' });
    expect(() => revoke('rm', 'other', '--', 'node')).toThrow(
      'approvals revoke [<tool>] -- <command> [args...]',
    );
    expect(() => revoke('rm', '--')).toThrow('approvals revoke: give a command after "--"');
    expect(() => revoke()).toThrow('approvals revoke: give the server');
    expect(() => parseCommand(['approvals', 'list', '--', 'node'])).toThrow('takes no arguments');
    expect(parseCommand(['approvals', 'trust', '--', 'node', 's.js'])).toMatchObject({
      server: node,
    });
  });

  it('parses the --auth-* options of serve --http', () => {
    const common = [
      '--auth-audience',
      'https://mcp.example.com/mcp',
      '--auth-issuer',
      'https://as',
    ];
    expect(
      parseCommand([
        ...['serve', 'srv.js', '--http', '0', ...common],
        ...['--auth-jwks', 'https://as/jwks', '--auth-scope', 'a', '--auth-scope', 'b'],
      ]),
    ).toMatchObject({
      mode: {
        auth: {
          resource: 'https://mcp.example.com/mcp',
          issuer: 'https://as',
          authorizationServers: ['https://as'],
          scopes: ['a', 'b'],
          allowLoopbackHttp: false,
          verify: { kind: 'jwt', jwksUrl: 'https://as/jwks' },
        },
      },
    });
    expect(
      parseCommand([
        ...['serve', 'srv.js', '--http', '0', ...common, '--auth-introspection', 'https://as/i'],
        ...['--auth-client-id', 'rs', '--auth-client-secret-env', 'RS_SECRET'],
        ...['--auth-server', 'https://as2', '--auth-allow-loopback-http'],
      ]),
    ).toMatchObject({
      mode: {
        auth: {
          authorizationServers: ['https://as2'],
          scopes: [],
          allowLoopbackHttp: true,
          verify: {
            kind: 'introspection',
            endpoint: 'https://as/i',
            clientId: 'rs',
            clientSecretEnv: 'RS_SECRET',
          },
        },
      },
    });
    expect(parseCommand(['serve', 'srv.js', '--http', '0'])).toMatchObject({
      mode: { auth: undefined },
    });
  });

  it.each([
    [['frobnicate'], /Unknown command/],
    [['list'], /after "--"/],
    [['list', '--'], /after "--"/],
    [['call', '--', 'srv'], /exactly one tool/],
    [['call', 't', '--arg', 'novalue', '--', 's'], /key=value/],
    [['call', 't', '--json', '[1]', '--', 's'], /JSON object/],
    [['call', 't', '--json', '{bad', '--', 's'], /not valid JSON/],
    [['call', 't', '--timeout', '-1', '--', 's'], /--timeout/],
    [['call', 't', '--unknown', '--', 's'], /unknown option --unknown/],
    [['serve'], /exactly one module/],
    [['serve', 'm.js', '--http', 'eighty'], /port number/],
    [['serve', 'm.js', '--stateless'], /--http only/],
    [['serve', 'm.js', '--redis', 'redis://x:1'], /--http only/],
    [['serve', 'm.js', '--http', '0', '--redis', 'http://x'], /redis:\/\/ URL/],
    [['serve', 'm.js', '--http', '0', '--redis-prefix', 'p:'], /--redis only/],
    [['serve', 'm.js', '--auth-jwks', 'https://a/jwks'], /--http only/],
    [['serve', 'm.js', '--http', '0', '--auth-scope', 's'], /exactly one of --auth-jwks/],
    [
      ['serve', 'm.js', '--http', '0', '--auth-jwks', 'u', '--auth-introspection', 'u'],
      /exactly one/,
    ],
    [['serve', 'm.js', '--http', '0', '--auth-jwks', 'u', '--auth-issuer', 'i'], /--auth-audience/],
    [['serve', 'm.js', '--http', '0', '--auth-jwks', 'u', '--auth-audience', 'a'], /--auth-issuer/],
    [
      ['serve', 'm.js', '--http', '0', ...['--auth-introspection', 'u', '--auth-audience', 'a']],
      /--auth-introspection needs --auth-issuer|authentication needs --auth-issuer/,
    ],
    [
      [
        'serve',
        'm',
        '--http',
        '0',
        ...['--auth-introspection', 'u', '--auth-audience', 'a', '--auth-issuer', 'i'],
      ],
      /--auth-introspection needs --auth-client-id/,
    ],
    [
      [
        ...['serve', 'm', '--http', '0', '--auth-introspection', 'u', '--auth-audience', 'a'],
        ...['--auth-issuer', 'i', '--auth-client-id', 'c', '--auth-client-secret-env', 's3cr3t!'],
      ],
      /NAME of an environment variable/,
    ],
    [
      [
        ...['serve', 'm', '--http', '0', '--auth-jwks', 'u', '--auth-audience', 'a'],
        ...['--auth-issuer', 'i', '--auth-client-id', 'c'],
      ],
      /--auth-client-id applies to --auth-introspection only/,
    ],
    [
      [
        ...['serve', 'm', '--http', '0', '--host', '0.0.0.0', '--auth-jwks', 'u'],
        ...['--auth-audience', 'a', '--auth-issuer', 'i'],
      ],
      /--allowed-host/,
    ],
    [['list', 'ftp://x'], /not an http/],
    [['list', 'http://x', '--', 'node'], /not both/],
    [['list', '--header', 'bad', 'http://x'], /Name: value/],
    [['list', '--header', 'A: b', '--', 'node'], /URLs only/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});

describe('typedArguments', () => {
  const tool = {
    name: 't',
    inputSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string' },
        n: { type: 'integer' },
        on: { type: 'boolean' },
        list: { type: 'array' },
        any: {},
      },
    },
  };
  it('types values from the input schema, --arg over --json', () => {
    expect(
      typedArguments(tool, { name: 'from json', n: 1 }, [
        ['name', '007'],
        ['on', 'false'],
        ['list', '[1,2]'],
        ['any', '{"a":1}'],
      ]),
    ).toEqual({ name: '007', n: 1, on: false, list: [1, 2], any: { a: 1 } });
    expect(typedArguments(tool, undefined, [['n', '42']])).toEqual({ n: 42 });
  });
  it('reads keys a schema allowing more does not type as JSON when they parse', () => {
    const open = { ...tool, inputSchema: { ...tool.inputSchema, additionalProperties: true } };
    expect(
      typedArguments(open, { extra: 1 }, [
        ['unknown', 'plain'],
        ['other', '[1]'],
      ]),
    ).toEqual({
      extra: 1,
      unknown: 'plain',
      other: [1],
    });
  });
  it('refuses a value of the wrong type', () => {
    expect(() => typedArguments(tool, undefined, [['n', 'many']])).toThrow(/expected integer/);
  });
  it('cannot be tricked into changing a prototype', () => {
    const open = { ...tool, inputSchema: { ...tool.inputSchema, additionalProperties: {} } };
    const args = typedArguments(open, undefined, [['__proto__', '{"polluted":true}']]);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('progressBar', () => {
  it('draws on a terminal and stays silent elsewhere', () => {
    const written: string[] = [];
    const bar = progressBar({ isTTY: true, columns: 80, write: (t: string) => written.push(t) });
    bar.update({ progress: 1, total: 4, message: 'step' });
    bar.done();
    expect(written[0]).toContain('25% step');
    expect(written[1]).toBe('\r\x1b[2K');
    const quiet: string[] = [];
    const off = progressBar({ isTTY: false, write: (t: string) => quiet.push(t) });
    off.update({ progress: 1 });
    expect(quiet).toEqual([]);
  });
});

// The arguments of `toolwire login` and `toolwire logout`.
import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from './args.js';
import { parseLogin } from './loginArgs.js';

describe('parseLogin', () => {
  it('defaults: dynamic registration, the scopes the server asks for, a browser, a free port', () => {
    expect(parseLogin(['https://mcp.example/mcp'])).toEqual({
      kind: 'login',
      url: 'https://mcp.example/mcp',
      scopes: [],
      client: { kind: 'dynamic' },
      allowLoopbackHttp: false,
      browser: true,
      redirectPort: undefined,
      jsonOutput: false,
    });
  });

  it('reads every option', () => {
    expect(
      parseLogin([
        ...['http://127.0.0.1:3000/mcp', '--scope', 'files:read files:write', '--scope', 'a'],
        ...['--scope', 'a', '--client-id', 'cli', '--client-secret-env', 'CLI_SECRET'],
        ...['--allow-loopback-http', '--no-browser', '--redirect-port', '8765', '--json-output'],
      ]),
    ).toEqual({
      kind: 'login',
      url: 'http://127.0.0.1:3000/mcp',
      scopes: ['files:read', 'files:write', 'a'],
      client: { kind: 'pre-registered', clientId: 'cli', clientSecretEnv: 'CLI_SECRET' },
      allowLoopbackHttp: true,
      browser: false,
      redirectPort: 8765,
      jsonOutput: true,
    });
    expect(
      parseLogin(['https://m.example/', '--client-metadata-url', 'https://app.example/c.json']),
    ).toMatchObject({ client: { kind: 'metadata-document', url: 'https://app.example/c.json' } });
    expect(
      parseLogin([
        ...['https://m.example/', '--client-metadata-url', 'http://127.0.0.1:9/c.json'],
        '--allow-loopback-http',
      ]),
    ).toMatchObject({ client: { kind: 'metadata-document', url: 'http://127.0.0.1:9/c.json' } });
    expect(parseLogin(['https://m.example/', '--client-id', 'pub'])).toMatchObject({
      client: { kind: 'pre-registered', clientId: 'pub', clientSecretEnv: undefined },
    });
  });

  it.each([
    [[], /exactly one server URL/],
    [['https://a.example', 'https://b.example'], /exactly one server URL/],
    [['mcp.example'], /is not a URL/],
    [['ftp://mcp.example/'], /not an http\(s\) URL/],
    [['http://mcp.example/mcp'], /not https: access tokens would cross the network in clear/],
    [['https://m.example', '--scope', 'a"b'], /is not a scope/],
    [['https://m.example', '--scope', 'a\\b'], /is not a scope/],
    [['https://m.example', '--client-secret-env', 'S'], /applies to --client-id only/],
    [['https://m.example', '--client-id', 'c', '--client-secret-env', 'x-y'], /NAME of an env/],
    [['https://m.example', '--client-id', ''], /--client-id needs a value/],
    [
      ['https://m.example', '--client-id', 'c', '--client-metadata-url', 'https://a.example/c'],
      /either --client-id .* or --client-metadata-url, not both/,
    ],
    [['https://m.example', '--client-metadata-url', 'https://app.example/'], /with a path/],
    [['https://m.example', '--client-metadata-url', 'https://app.example/c#f'], /no fragment/],
    [['https://m.example', '--client-metadata-url', 'http://app.example/c'], /needs an https/],
    [['https://m.example', '--client-metadata-url', 'http://127.0.0.1/c'], /needs an https/],
    [['https://m.example', '--client-metadata-url', 'not a url'], /needs an https/],
    [['https://m.example', '--redirect-port', '0'], /from 1 to 65535/],
    [['https://m.example', '--redirect-port', '70000'], /from 1 to 65535/],
    [['https://m.example', '--redirect-port', '80a'], /from 1 to 65535/],
    [
      ['https://m.example', '--no-browse'],
      /unknown option --no-browse; did you mean --no-browser\?/,
    ],
    [['https://m.example', '--scope'], /--scope needs a value/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseLogin(argv)).toThrow(UsageError);
    expect(() => parseLogin(argv)).toThrow(message);
  });
});

describe('logout', () => {
  it('takes one http(s) URL (any host: it only forgets)', () => {
    expect(parseCommand(['logout', 'http://mcp.example/mcp'])).toEqual({
      kind: 'logout',
      url: 'http://mcp.example/mcp',
      revoke: true,
      allowLoopbackHttp: false,
      clientSecretEnv: undefined,
      jsonOutput: false,
    });
    expect(
      parseCommand([
        ...['logout', 'https://m.example/', '--allow-loopback-http'],
        ...['--client-secret-env', 'MY_SECRET'],
      ]),
    ).toMatchObject({ revoke: true, allowLoopbackHttp: true, clientSecretEnv: 'MY_SECRET' });
    expect(parseCommand(['logout', 'https://m.example/', '--no-revoke'])).toMatchObject({
      revoke: false,
    });
    expect(parseCommand(['logout', '--json-output', 'https://m.example/'])).toMatchObject({
      jsonOutput: true,
    });
  });

  it.each([
    [['logout'], /logout: give exactly one server URL/],
    [['logout', 'ftp://x/'], /not an http\(s\) URL/],
    [['logout', 'https://m.example', '--scope', 's'], /logout: unknown option --scope/],
    [['logout', '--', 'node', 's.js'], /logout: takes a server URL, not a command/],
    [['logout', 'https://m.example', '--client-secret-env', 'a-b'], /takes the NAME/],
    [
      ['logout', 'https://m.example', '--no-revoke', '--allow-loopback-http'],
      /--no-revoke sends nothing/,
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});

/**
 * @module The help texts of the program and of each command, laid out in aligned columns from one
 * table per command, so `toolwire help`, `toolwire <command> --help` and docs/cli.md agree.
 */

/** The commands that have their own help. */
export type HelpTopic = 'serve' | 'list' | 'call' | 'login' | 'logout' | 'approvals' | 'console';

/** The commands with help, in the order the program help lists them. */
export const HELP_TOPICS: readonly HelpTopic[] = [
  'serve',
  'list',
  'call',
  'login',
  'logout',
  'approvals',
  'console',
];

type Rows = ReadonlyArray<readonly [string, string]>;

/** Two columns: the left one padded to its widest entry (capped, longer ones wrap below). */
function columns(rows: Rows, indent = '  ', maxLeft = 30): string {
  const width = Math.min(maxLeft, Math.max(...rows.map(([left]) => left.length)));
  return rows
    .map(([left, right]) =>
      left.length > width
        ? `${indent}${left}\n${indent}${' '.repeat(width + 2)}${right}`
        : `${indent}${left.padEnd(width + 2)}${right}`,
    )
    .join('\n');
}

const EXIT_STATUS = `Exit status:
${columns([
  ['0', 'success'],
  ['1', 'the tool reported an error (isError)'],
  ['2', 'usage error, including an unknown tool or argument name'],
  ['3', 'connection or protocol error'],
  ['130', 'interrupted (Ctrl-C)'],
])}`;

/** `serve` runs until stopped: its statuses say how it ended, not how a tool did. */
const SERVE_EXIT_STATUS = `Exit status:
${columns([
  ['0', 'stopped: stdin closed (stdio), or SIGINT/SIGTERM after a graceful shutdown'],
  ['2', 'usage error, including a module that cannot be loaded or exports no server'],
  ['3', 'the server could not start (port in use, Redis unreachable...)'],
])}`;

/** `login` and `logout` end with a login, not a tool's result. */
const LOGIN_EXIT_STATUS = `Exit status:
${columns([
  ['0', 'success'],
  ['2', 'usage error'],
  ['3', 'the authorization failed, or the server or the credentials file could not be used'],
  ['130', 'interrupted (Ctrl-C)'],
])}`;

/** Where `login` keeps tokens (credentialsFile.ts), as the help says it. */
const CREDENTIALS_FILE = `$XDG_CONFIG_HOME/toolwire/credentials.json (by default
~/.config/toolwire/credentials.json; %APPDATA%\\toolwire\\credentials.json on Windows)`;

const CLIENT_OPTIONS: Rows = [
  ['--header <Name: value>', 'A request header for a URL, e.g. Authorization (repeatable)'],
  ['--allow-loopback-http', 'Accept http:// OAuth endpoints on loopback hosts (development)'],
  ['--audit <file>', 'Append the audit trail (JSON lines) to this file'],
  ['--max-message-bytes <n>', 'Largest message accepted from the server (default 4MiB; 16MiB...)'],
  ['--json-output', 'Print JSON on stdout: the answer, or {"error": {...}} for any failure'],
  ['--era <era>', 'auto (default: probe, fall back), legacy (initialize) or modern (2026-07-28)'],
  ['-h, --help', 'Show this help'],
];

const TOPICS: Record<HelpTopic, { usage: string[]; about: string; options: Rows }> = {
  serve: {
    usage: [
      'toolwire serve <module> [--export <name>] [--watch]',
      'toolwire serve <module> --http <port> [--host <host>] [--stateless] [--watch]',
      '               [--allowed-host <name> ...] [--allowed-origin <origin> ...]',
      '               [--allow-unauthenticated-remote]',
      '               [--redis <redis://host:port> [--redis-prefix <prefix>]]',
      '               [--auth-audience <uri> --auth-issuer <iss> [--auth-scope <s> ...]',
      '                (--auth-jwks <url> | --auth-introspection <url> --auth-client-id <id>',
      '                 --auth-client-secret-env <VAR>) [--auth-server <url> ...]]',
    ],
    about: `Serve the McpServer a module exports (its default export, or --export <name>; a function
returning one works too) over stdio, or over Streamable HTTP at /mcp with --http (and the
2024-11-05 HTTP+SSE transport at /sse). The module may be JavaScript or TypeScript (.ts, .mts:
run by the optional tsx package when it is installed, else by Node's type stripping where this
Node has it). Over stdio, anything the module prints goes to stderr: stdout carries MCP messages
only; started on a terminal, it says on stderr that it waits for a client on stdin. With
--watch, the server restarts when the module or a local file it loaded changes: over HTTP on
the same port, over stdio behind a relay that keeps the client connected and tells it the tool
list changed. With --auth-audience and --auth-issuer, every HTTP request needs an OAuth access
token issued for that audience (the server's canonical URI) by that issuer, checked against the
issuer's key set (--auth-jwks) or its introspection endpoint (--auth-introspection, with the
secret read from the environment variable --auth-client-secret-env names); the Protected
Resource Metadata is served at /.well-known/oauth-protected-resource. Without them
serve has no authentication: a --host that is not a loopback address is refused unless
--allowed-host names the hosts clients use (e.g. behind a proxy that authenticates) or
--allow-unauthenticated-remote insists (a warning is printed).`,
    options: [
      ['--export <name>', 'The export holding the server (default: default, then server)'],
      ['--http <port>', 'Serve over HTTP on this port (0 picks a free one)'],
      ['--host <host>', 'Listen on this address (default 127.0.0.1)'],
      ['--stateless', 'No sessions: each request stands alone (no tasks, no GET stream)'],
      ['--allowed-host <name>', 'Answer to this Host: name or name:port (repeatable)'],
      ['--allowed-origin <origin>', 'Accept this Origin: scheme://host[:port] (repeatable)'],
      ['--allow-unauthenticated-remote', 'Serve a non-loopback --host without --allowed-host'],
      ['--redis <url>', 'Keep tasks, sessions and SSE events in Redis (several instances)'],
      ['--redis-prefix <prefix>', 'Prefix of the Redis keys (default "toolwire:")'],
      ['--auth-audience <uri>', 'Require OAuth tokens for this canonical server URI (RFC 8707)'],
      ['--auth-issuer <iss>', 'The exact issuer (iss) of the access tokens'],
      ['--auth-jwks <url>', "Verify JWT access tokens with the issuer's key set"],
      ['--auth-introspection <url>', 'Or ask this token introspection endpoint (RFC 7662)'],
      ['--auth-client-id <id>', "This server's client id for introspection"],
      ['--auth-client-secret-env <VAR>', 'The environment variable holding its client secret'],
      ['--auth-scope <scope>', 'A scope every request needs (repeatable; also advertised)'],
      ['--auth-server <url>', 'Authorization server to advertise (repeatable; default the issuer)'],
      ['--auth-allow-loopback-http', 'Allow http:// auth URLs on loopback hosts (development)'],
      ['--watch', 'Restart the server when the module or a file it imports changes'],
      ['-h, --help', 'Show this help'],
    ],
  },
  list: {
    usage: ['toolwire list [options] <url>', 'toolwire list [options] -- <command> [args...]'],
    about: `List the tools of the server at a URL (Streamable HTTP, falling back to HTTP+SSE), or of a
stdio server started by the command: name, title, description, parameters, behaviour hints
(declared by the server, untrusted), output schema and task support. A URL you signed in to with
toolwire login is called with the tokens stored for it (refreshed when they expire), unless
--header gives an Authorization of your own.`,
    options: CLIENT_OPTIONS,
  },
  call: {
    usage: [
      'toolwire call <tool> [options] <url>',
      'toolwire call <tool> [options] -- <command> [args...]',
    ],
    about: `Call one tool and print its result on stdout (a tool error goes to stderr, exit status 1).
Progress shows as a bar on a terminal. A tool that requires a task runs as one, its status
changes printed on stderr. Ctrl-C cancels the call (or the task) and exits 130. Tokens stored
by toolwire login for the URL are used as with list. Before calling a tool, call shows which
server (its URL, or the real paths of what it runs; the name it gives itself only as a label),
the definition (hidden characters and look-alike names flagged; a tool renamed from another
shown as such) and the arguments, and asks: y (once), a (always, for this definition: kept in
the approvals file; a changed definition is shown and asked about again) or n. Annotations are
hints from the server: only for a server you trust (--trust-annotations, "trustedServers" in
config.json, or toolwire approvals trust) do tools marked read-only run unasked, and not when
being read-only is new. Without a terminal a call that needs asking is refused (exit 2) unless
--yes or --confirm never. An argument name (of --arg or --json) the tool's input schema does
not name is refused (exit 2, the closest names shown), unless the schema allows more.
On a terminal a server's elicitation is asked field by field; its sampling request is shown and
refused, or sent (when you allow it) to the model command config.json names ("sampling").`,
    options: [
      ['--arg <key=value>', "One argument, typed from the tool's input schema (repeatable)"],
      ['--json <object>', 'All arguments as a JSON object (--arg entries override it)'],
      ['--timeout <ms>', 'Give up after this long without progress (default 60000)'],
      ['--task', 'Run as a task when the tool allows it'],
      ['--confirm <mode>', 'Ask first: always, unless-read-only (default) or never'],
      ['-y, --yes', 'Allow the call (and a model command sampling) without asking'],
      ['--trust-annotations', "Trust this server's annotations: read-only tools run unasked"],
      ...CLIENT_OPTIONS,
    ],
  },
  login: {
    usage: [
      'toolwire login <url> [--scope <scope> ...] [--no-browser] [--allow-loopback-http]',
      '               [--client-id <id> [--client-secret-env <VAR>] | --client-metadata-url <url>]',
      '               [--redirect-port <port>]',
    ],
    about: `Sign in to the MCP server at the URL with OAuth 2.1: find its authorization server (from the
server's Protected Resource Metadata), register with it (the pre-registered --client-id, the
Client ID Metadata Document at --client-metadata-url, or dynamic registration), print the
authorization URL and open it in a browser when there is one, receive the answer on
http://127.0.0.1:<port>/callback, and keep the tokens, per authorization server and server, in
${CREDENTIALS_FILE},
readable by you only. toolwire list and call use them for that URL, refreshing them when they
expire. The URL must be https (or http on a loopback host). A login replaces the tokens held for
the URL: with --scope, name every scope you need (a server may hide tools your scopes lack).`,
    options: [
      ['--scope <scope>', 'A scope to ask for (repeatable; default: what the server asks)'],
      ['--client-id <id>', 'A client id registered with the authorization server'],
      ['--client-secret-env <VAR>', "The environment variable holding that client's secret"],
      ['--client-metadata-url <url>', 'The https URL of a Client ID Metadata Document'],
      ['--no-browser', 'Only print the authorization URL (open it yourself, on this machine)'],
      ['--redirect-port <port>', 'Receive the redirect on this port (default: a free one)'],
      ['--allow-loopback-http', 'Allow http:// authorization endpoints on loopback (development)'],
      ['--json-output', 'Print JSON on stdout: the login, or {"error": {...}} for any failure'],
      ['-h, --help', 'Show this help'],
    ],
  },
  console: {
    usage: [
      'toolwire console <url>... [-- <command> [args...]] [--host <host>] [--port <port>]',
      '                 [--audit <file> | --no-history] [--allow-loopback-http]',
      '                 [--era legacy|modern|auto]',
    ],
    about: `Connect to the servers named (URLs, and one command after "--") and serve a web console for
them on 127.0.0.1 (a free port unless --port): their tools, a form for each, a confirmation
before each call (allow once, always for this definition, or deny), progress and cancel,
results, and the history. Open the URL it prints: it carries a one-time sign-in token (a signed-in
page gives a link for another browser); anything else is refused. A protected server shows a sign-in link on the page (its
authorization server's own page, in your browser); a server that cannot be reached shows why,
with Retry. Ctrl-C stops it.`,
    options: [
      ['--host <host>', 'Listen on this address instead (reachable from the network!)'],
      ['--port <port>', 'Listen on this port (default: a free one)'],
      ['--audit <file>', 'Keep the history (JSON lines) in this file'],
      ['--no-history', 'Keep no history file (default: console-history.jsonl by credentials)'],
      ['--allow-loopback-http', 'Accept http:// OAuth endpoints on loopback hosts (development)'],
      [
        '--era <era>',
        'auto (default: probe, fall back), legacy (initialize) or modern (2026-07-28)',
      ],
      ['-h, --help', 'Show this help'],
    ],
  },
  approvals: {
    usage: [
      'toolwire approvals list',
      'toolwire approvals revoke <url> | <server> [<tool>]',
      'toolwire approvals revoke [<tool>] -- <command> [args...]',
      'toolwire approvals trust|distrust <url> | <server> | -- <command> [args...]',
    ],
    about: `The tools you allowed always when toolwire call or the console asked ("a"), per server (its
URL, or the real paths of the program and files the command runs) and tool, with the
fingerprint of the definition you allowed: a call of that definition is not asked about again,
a changed one is (showing what changed). revoke takes one tool or all of a server's: the
server as a URL, as list shows it, or as call takes it (the tool first, then "--" and the
command line: its program and files resolved from the current folder, as call does). trust
marks a server whose annotations you trust (its read-only tools run without asking, unless one
becomes read-only); distrust takes that back. They are kept in approvals.json beside the
credentials file, readable by you only.`,
    options: [
      ['--json-output', 'Print JSON on stdout'],
      ['-h, --help', 'Show this help'],
    ],
  },
  logout: {
    usage: [
      'toolwire logout <url> [--allow-loopback-http] [--client-secret-env <VAR>] [--no-revoke]',
    ],
    about: `Forget the tokens stored for the MCP server at the URL (from every authorization server that
issued them) and which authorization server it used, then revoke them at the authorization
server when it offers revocation (RFC 7009: the refresh token, then the access token), and say
what was done. A revocation that fails is reported on stderr; the tokens are forgotten all the
same (exit 0). The client registrations stay: they belong to the authorization server, for its
other servers.`,
    options: [
      ['--no-revoke', 'Only forget the tokens here; send nothing'],
      ['--allow-loopback-http', 'Allow an http:// authorization server on loopback (development)'],
      ['--client-secret-env <VAR>', 'The secret of the --client-id you logged in with, to revoke'],
      ['--json-output', 'Print JSON on stdout: what was removed and revoked, or {"error": {...}}'],
      ['-h, --help', 'Show this help'],
    ],
  },
};

/** The help of one command. */
export function commandHelp(topic: HelpTopic): string {
  const { usage, about, options } = TOPICS[topic];
  const lines = usage.map((u, i) => `${i === 0 ? 'Usage: ' : '       '}${u}`);
  const exit =
    topic === 'serve'
      ? SERVE_EXIT_STATUS
      : topic === 'login' || topic === 'logout' || topic === 'approvals' || topic === 'console'
        ? LOGIN_EXIT_STATUS
        : EXIT_STATUS;
  return `${lines.join('\n')}\n\n${about}\n\nOptions:\n${columns(options)}\n\n${exit}`;
}

/** The program's help. */
export const USAGE: string = `toolwire: MCP tools from the command line

Usage:
${columns(
  [
    ['toolwire serve <module> [options]', "Serve a module's McpServer over stdio or HTTP"],
    ['toolwire list [options] <url>', 'List the tools of a server at a URL'],
    ['toolwire list [options] -- <command>', '... or of a stdio server the command starts'],
    ['toolwire call <tool> [options] <url>', 'Call one tool'],
    ['toolwire call <tool> [options] -- <command>', '... of a stdio server the command starts'],
    ['toolwire login <url> [options]', 'Sign in to a server (OAuth); list and call use it'],
    ['toolwire logout <url>', 'Forget (and revoke) the tokens stored for a server'],
    ['toolwire approvals list|revoke', 'The tools you allowed always, per server'],
    ['toolwire approvals trust|distrust', "Whether a server's annotations count"],
    ['toolwire console <url>... [-- <cmd>]', 'A web console for servers, on 127.0.0.1'],
    ['toolwire help [command]', 'Help on a command (also: toolwire <command> --help)'],
    ['toolwire --version', 'Print the version'],
  ],
  '  ',
  44,
)}

${EXIT_STATUS}`;

// Lint rules are the style: type-checked typescript-eslint, layer boundaries that mirror
// STYLE.md §1 (also checked by test/contract/layering.test.ts), small files. File names
// (camelCase; kebab case for regression tests) are checked by test/contract/fileNames.test.ts.
// Layers use ESLint's built-in no-restricted-imports rather than eslint-plugin-import-x: that
// plugin's native resolver leaves platform packages out of package-lock.json, which breaks npm ci.
import tseslint from 'typescript-eslint';

const LAYERS = [
  'jsonrpc',
  'protocol',
  'tasks',
  'server',
  'client',
  'transports',
  'oauthClient',
  'stores',
  'cli',
  'otel',
  'testing',
];

/** How deep folders go below a layer's own (src/transports/http/server/sessions/cluster: 4). */
const MAX_DEPTH = 6;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Forbids, in the files of `layer` (src/<layer>/**), imports that reach the named sibling layers,
 * except the single files in `allow` (e.g. `server/policy/rateLimitStore.js`) and the folders in
 * `allowFolders` (e.g. `protocol/eras`). One entry per folder depth, each with exactly the `../`
 * that climb to src/: a folder of a layer named like another layer (transports/http/client/,
 * server/tasks/) is then not taken for that layer, and no depth escapes the rule.
 */
function layer(
  name,
  forbidden,
  message,
  extra = [],
  allow = [],
  { under = '', allowFolders = [] } = {},
) {
  const base = under === '' ? name : `${name}/${under}`;
  const baseDepth = base.split('/').length - 1;
  const exempt = [
    ...allow.map((a) => `${escape(a)}$`),
    ...allowFolders.map((f) => `${escape(f)}/`),
  ];
  const entries = [];
  for (let depth = 0; depth + baseDepth <= MAX_DEPTH; depth++) {
    const up = escape('../'.repeat(depth + baseDepth + 1));
    const lookahead = exempt.length > 0 ? `(?!${exempt.join('|')})` : '';
    const patterns = [{ regex: `^${up}${lookahead}(?:${forbidden.join('|')})/`, message }];
    if (extra.length > 0) patterns.push({ group: extra, message });
    entries.push({
      files: [`src/${base}/${'*/'.repeat(depth)}*.ts`],
      ignores: ['src/**/*.test.ts'],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    });
  }
  return entries;
}
const NODE = ['node:*'];
const TRANSPORTS_FORBID = [
  'protocol',
  'tasks',
  'server',
  'client',
  'oauthClient',
  'stores',
  'cli',
  'otel',
  'testing',
];

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', '.bench-out/**'] },
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Transports implement an async interface; some methods have nothing to await.
      '@typescript-eslint/require-await': 'off',
      'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'max-params': ['error', 3] },
  },
  ...layer(
    'jsonrpc',
    LAYERS.filter((l) => l !== 'jsonrpc'),
    'L0 jsonrpc imports nothing above it, and no Node',
    NODE,
  ),
  ...layer(
    'protocol',
    ['tasks', 'server', 'client', 'transports', 'oauthClient', 'stores', 'cli', 'otel', 'testing'],
    'L1 protocol imports only jsonrpc, and no Node',
    NODE,
  ),
  ...layer(
    'tasks',
    ['server', 'client', 'transports', 'oauthClient', 'stores', 'cli', 'otel', 'testing'],
    'L2 tasks imports only jsonrpc and protocol, and no Node',
    NODE,
  ),
  ...layer(
    'server',
    ['client', 'transports', 'oauthClient', 'stores', 'cli', 'otel', 'testing'],
    'L2 server imports only jsonrpc, protocol and tasks, and no Node',
    NODE,
  ),
  ...layer(
    'client',
    ['server', 'transports', 'oauthClient', 'stores', 'cli', 'otel', 'testing'],
    'L2 client imports only jsonrpc, protocol and tasks, and no Node',
    NODE,
  ),
  ...layer(
    'transports',
    TRANSPORTS_FORBID,
    'transports import only jsonrpc (the HTTP server also protocol/eras/), not the OAuth client',
  ),
  // The one sanctioned edge up (STYLE.md §3): the 2026 transport is protocol-aware by
  // specification, so the HTTP server transport may import the era classifier and the 2026 header
  // rules of protocol/eras/ (pure, no Node). Later entries win: this replaces the rule above there.
  ...layer(
    'transports',
    TRANSPORTS_FORBID,
    'transports import only jsonrpc; the HTTP server also protocol/eras/ (the era classifier and the 2026 header rules)',
    [],
    [],
    { under: 'http/server', allowFolders: ['protocol/eras'] },
  ),
  // The OAuth client (toolwire/http, toolwire/node) sits above the transports: it authorizes the
  // HTTP client transport through the transport's hook (transports/http/client/httpAuthorization.ts)
  // and uses the HTTP transports' shared helpers; Node where it must (loopback receiver, files).
  ...layer(
    'oauthClient',
    ['protocol', 'tasks', 'server', 'client', 'stores', 'cli', 'otel', 'testing'],
    'the OAuth client imports only jsonrpc and transports',
  ),
  // stores/ also implements the HTTP cluster interfaces (transports/http/server/sessions/cluster/
  // cluster.ts), the rate limit store interface (server/policy/rateLimitStore.ts) and the spent
  // states' (server/input/spentStates.ts), its two files of server/: see src/redis.ts.
  ...layer(
    'stores',
    ['protocol', 'server', 'client', 'oauthClient', 'cli', 'otel', 'testing'],
    'stores import only jsonrpc, the tasks interface, the rate limit and spent state store interfaces and the transports they implement',
    [],
    ['server/policy/rateLimitStore.js', 'server/input/spentStates.js'],
  ),
  // toolwire/otel: @opentelemetry/api, the jsonrpc errors and guards, and only the TYPES of the
  // server and the client (a value import would pull their code into the otel bundle).
  {
    files: ['src/otel/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../tasks/*',
                '../transports/*',
                '../oauthClient/*',
                '../stores/*',
                '../cli/*',
                '../testing/*',
                ...NODE,
              ],
              message: 'toolwire/otel imports only jsonrpc, protocol, server and client types',
            },
            {
              group: ['../server/*', '../client/*', '../protocol/*'],
              allowTypeImports: true,
              message: 'toolwire/otel imports only the types of the server, client and protocol',
            },
          ],
        },
      ],
    },
  },
  // The CLI uses the public API only, importing each name from the module that defines it: with
  // code splitting, esbuild keeps every chunk an imported barrel reaches, so an entry file would
  // load the whole library for every command. test/contract/layering.test.ts checks that each
  // name the CLI imports is one an entry file exports.
  ...layer(
    'cli',
    ['otel', 'testing'],
    'the CLI imports the public API: not toolwire/otel or /testing',
  ),
  // toolwire/testing uses toolwire as its users do (the entry files), on any runtime.
  ...layer(
    'testing',
    [
      'jsonrpc',
      'protocol',
      'tasks',
      'server',
      'client',
      'transports',
      'oauthClient',
      'stores',
      'cli',
      'otel',
    ],
    'toolwire/testing imports only entry files, and no Node',
    NODE,
  ),
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'examples/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);

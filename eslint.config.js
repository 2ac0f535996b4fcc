// Lint rules are the style: type-checked typescript-eslint, layer boundaries that mirror
// STYLE.md §1 (also checked by test/contract/layering.test.ts), camelCase file names, small files.
// Layers use ESLint's built-in no-restricted-imports rather than eslint-plugin-import-x: that
// plugin's native resolver leaves platform packages out of package-lock.json, which breaks npm ci.
import unicorn from 'eslint-plugin-unicorn';
import tseslint from 'typescript-eslint';

const LAYERS = [
  'jsonrpc',
  'protocol',
  'tasks',
  'server',
  'client',
  'transports',
  'stores',
  'cli',
  'otel',
  'testing',
];

/**
 * Forbids imports of the named sibling layers from files of `layer` (src/<layer>/**), except the
 * single files in `allow` (e.g. `server/rateLimitStore.js`).
 */
function layer(name, forbidden, message, extra = [], allow = []) {
  const depth = ['../', '../../'];
  const group = forbidden
    .flatMap((f) => depth.map((d) => `${d}${f}/*`))
    .concat(extra)
    .concat(allow.flatMap((a) => depth.map((d) => `!${d}${a}`)));
  return {
    files: [`src/${name}/**/*.ts`],
    ignores: ['src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
  };
}
const NODE = ['node:*'];

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', '.bench-out/**'] },
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { unicorn },
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
      'unicorn/filename-case': ['error', { case: 'camelCase' }],
      'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }],
    },
  },
  // Regression tests are named after their issue (test/regression/issue-8-<topic>.test.ts).
  {
    files: ['test/regression/**/*.ts'],
    rules: { 'unicorn/filename-case': ['error', { case: 'kebabCase' }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'max-params': ['error', 3] },
  },
  layer(
    'jsonrpc',
    LAYERS.filter((l) => l !== 'jsonrpc'),
    'L0 jsonrpc imports nothing above it, and no Node',
    NODE,
  ),
  layer(
    'protocol',
    ['tasks', 'server', 'client', 'transports', 'stores', 'cli', 'otel', 'testing'],
    'L1 protocol imports only jsonrpc, and no Node',
    NODE,
  ),
  layer(
    'tasks',
    ['server', 'client', 'transports', 'stores', 'cli', 'otel', 'testing'],
    'L2 tasks imports only jsonrpc and protocol, and no Node',
    NODE,
  ),
  layer(
    'server',
    ['client', 'transports', 'stores', 'cli', 'otel', 'testing'],
    'L2 server imports only jsonrpc, protocol and tasks, and no Node',
    NODE,
  ),
  layer(
    'client',
    ['server', 'transports', 'stores', 'cli', 'otel', 'testing'],
    'L2 client imports only jsonrpc, protocol and tasks, and no Node',
    NODE,
  ),
  layer(
    'transports',
    ['protocol', 'tasks', 'server', 'client', 'stores', 'cli', 'otel', 'testing'],
    'transports import only jsonrpc',
  ),
  // stores/ also implements the HTTP cluster interfaces (transports/http/cluster.ts) and the rate
  // limit store interface (server/rateLimitStore.ts, its one file of server/): see src/redis.ts.
  layer(
    'stores',
    ['protocol', 'server', 'client', 'cli', 'otel', 'testing'],
    'stores import only jsonrpc, the tasks interface, the rate limit store interface and the transports they implement',
    [],
    ['server/rateLimitStore.js'],
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
  layer(
    'cli',
    ['jsonrpc', 'protocol', 'tasks', 'server', 'client', 'transports', 'stores', 'otel', 'testing'],
    'the CLI imports only entry files',
  ),
  // toolwire/testing uses toolwire as its users do (the entry files), on any runtime.
  layer(
    'testing',
    ['jsonrpc', 'protocol', 'tasks', 'server', 'client', 'transports', 'stores', 'cli', 'otel'],
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

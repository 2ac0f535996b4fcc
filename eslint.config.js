// Lint rules are the style: type-checked typescript-eslint, layer boundaries that mirror
// STYLE.md §1 (and test/contract/layering.test.ts), camelCase file names, small files.
import importX from 'eslint-plugin-import-x';
import unicorn from 'eslint-plugin-unicorn';
import tseslint from 'typescript-eslint';

const layer = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', '.bench-out/**'] },
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX, unicorn },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'unicorn/filename-case': ['error', { case: 'camelCase' }],
      'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }],
      // Transports implement an async interface; some methods have nothing to await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'max-params': ['error', 3],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            layer(
              './src/jsonrpc',
              ['./src/protocol', './src/server', './src/client', './src/transports', './src/cli'],
              'L0 jsonrpc imports nothing above it',
            ),
            layer(
              './src/protocol',
              ['./src/server', './src/client', './src/transports', './src/cli'],
              'L1 protocol imports only jsonrpc',
            ),
            layer(
              './src/server',
              ['./src/client', './src/transports', './src/cli'],
              'L2 server imports only jsonrpc and protocol',
            ),
            layer(
              './src/client',
              ['./src/server', './src/transports', './src/cli'],
              'L2 client imports only jsonrpc and protocol',
            ),
            layer(
              './src/transports',
              ['./src/protocol', './src/server', './src/client', './src/cli'],
              'transports import only jsonrpc',
            ),
            layer(
              './src/cli',
              [
                './src/jsonrpc',
                './src/protocol',
                './src/server',
                './src/client',
                './src/transports',
              ],
              'the CLI imports only entry files',
            ),
          ],
        },
      ],
    },
  },
  {
    files: [
      'src/jsonrpc/**/*.ts',
      'src/protocol/**/*.ts',
      'src/server/**/*.ts',
      'src/client/**/*.ts',
    ],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['node:*'], message: 'L0-L2 are runtime-neutral: no Node imports' }],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'examples/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
);

// The linter `npm test` runs (typescript-eslint's flat config): the recommended rules, with the
// type-aware ones that catch what review misses in an extension (a promise left floating, an
// `any` flowing into the API, an assertion that hides nothing).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
// Layout is Prettier's (npm run format; npm run lint checks it): no ESLint rule argues with it.
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', 'test/bench/fixture/**'] },
  // A disable comment that no longer disables anything fails the lint, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `import vscode = require('vscode')` is how src/ imports the API (see esbuild.mjs's vscodeOnce).
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^vscode$'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // node:test's describe/it return promises its runner awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
    },
  },
  {
    // The conversation page's script runs in the webview, a browser: plain JavaScript, not in the TypeScript project.
    files: ['media/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'script',
      globals: { acquireVsCodeApi: 'readonly', document: 'readonly', window: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
  },
  {
    // Tests read the stand-in's JSON and fake the editor's API: `any` there is the data under test.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // ky is evaluated at the first request (src/api/http.ts): a static import elsewhere would run its checks at activation again.
    files: ['src/**/*.ts'],
    ignores: ['src/api/http.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'ky', message: 'ky loads at the first request: use src/api/http.ts.', allowTypeImports: true }] },
      ],
    },
  },
  { files: ['**/*.mjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  prettier,
  {
    // The build script runs in node (the `globals` package is not a dependency: the two it uses).
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);

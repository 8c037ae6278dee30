// The project's lint rules: typescript-eslint's type-aware set, promises that cannot be
// dropped silently, and the layer rules of docs/architecture.md as import rules.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Below the entry (server.ts, app.ts, config.ts), each part of src/ may import only what its layer allows. */
const layers = [
  { target: './src/platform', from: ['./src/dashboard', './src/workspace'], message: 'platform/ knows neither application.' },
  { target: './src/dashboard', from: './src/workspace', message: 'The applications never import each other.' },
  { target: './src/workspace', from: './src/dashboard', message: 'The applications never import each other.' },
  {
    target: ['./src/platform', './src/dashboard', './src/workspace'],
    from: ['./src/server.ts', './src/app.ts', './src/config.ts'],
    message: 'Only the entry reads settings and builds the app: hand each part the slice it needs.',
  },
  { target: './src/**/routes.ts', from: './src/**/repository.ts', message: 'Routes reach data through services, never through repositories.' },
];

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test/artifacts/', 'data/', 'uploads/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['bench/*.mjs', 'eslint.config.mjs'], maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 20 },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Without the TypeScript extensions, import-x reads no .ts module and no-cycle finds nothing.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.mts', '.cts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Stores implement async interfaces (docs/decisions.md, Layers) over engines that answer at once
      // (SQLite, process memory): an async method without await is how they keep the interface.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // A number reads the same in a template as anywhere else; what the rule is for is an object,
      // null or undefined printed into a message, and those stay errors.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // \`() => list.remove()\` as a callback says what it does; a block around it would add nothing.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layers }],
    },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.mjs', '*.mjs', '*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    // The pages' scripts: browser globals, typed by the browser's own configuration (checkJs).
    files: ['public/js/**/*.js', 'public/boot/**/*.js'],
    languageOptions: {
      globals: globals.browser,
      parserOptions: { projectService: false, project: './tsconfig.browser.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // Tests and benchmarks read JSON answers as data (supertest and fetch give them the type
    // any) and check them with assertions; the rules against any guard src/, where they stay on.
    files: ['test/**/*.ts', 'bench/**/*.mjs'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowAny: true }],
      // A test's \`!\` is an assertion: when the value is missing the test fails at that line, as it should.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);

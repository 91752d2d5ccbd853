import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { moduleBoundaries } from './eslint-rules/module-boundaries.js';

/** Kysely's query builders and its `sql` tag: only repositories, src/db/ and tests write SQL. */
const NO_SQL_HERE =
  'SQL (Kysely query building) belongs in a repository (*.repository.ts) or src/db/; call a function of it instead.';
const SQL_BUILDERS = [
  'selectFrom',
  'selectNoFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
];

/** Imports that leave a feature: another feature, src/app, or a relative path past the feature's folder. */
const featureBoundary = (outside) => ({
  group: ['@/features/**', '@/app/**', outside],
  message: 'Features do not import each other or src/app.',
});

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/test-results/**', '**/playwright-report/**', 'data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Playwright fixtures are not React: their `use` is the fixture's callback, and a fixture that needs no
    // other names its first parameter `{}`, which Playwright reads to learn what it depends on.
    files: ['apps/web/e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' },
  },
  {
    // Import boundaries (engineering guide): a feature never imports another feature; src/app composes them.
    // Inside a feature, shared code comes through the '@/' alias and the feature's own files relatively; a
    // relative import may climb to the feature's folder, never past it. A large feature has sub-folders
    // (features/messages/<area>/components/…), whose files may climb one level more.
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featureBoundary('../**')] }] },
  },
  {
    files: ['apps/web/src/features/*/*/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featureBoundary('../../**')] }] },
  },
  {
    files: ['apps/web/src/features/*/*/*/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featureBoundary('../../../**')] }] },
  },
  {
    // Shared code (components, lib) is used by every feature, so it never imports one, nor src/app.
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/|(\\.\\./)+)(features|app)(/|$)',
              message: 'Shared code (src/components, src/lib) never imports a feature or src/app.',
            },
          ],
        },
      ],
    },
  },
  {
    // Module boundaries (engineering guide): a server module reaches another only through its service,
    // never its repository or storage/ (eslint-rules/module-boundaries.js). Messaging's sub-folders are
    // modules of their own.
    files: ['apps/server/src/**/*.ts'],
    plugins: { lumi: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: {
      'lumi/module-boundaries': [
        'error',
        {
          modulesDir: fileURLToPath(new URL('apps/server/src/modules', import.meta.url)),
          containers: ['messaging'],
        },
      ],
    },
  },
  {
    // SQL lives in repositories (and src/db/, migrations included); tests may write their own fixtures.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.repository.ts', 'apps/server/src/db/**', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.type='MemberExpression'][callee.property.name=/^(${SQL_BUILDERS.join('|')})$/]`,
          message: NO_SQL_HERE,
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: NO_SQL_HERE },
        { selector: "MemberExpression[object.name='sql']", message: NO_SQL_HERE },
      ],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', importNames: ['sql'], message: NO_SQL_HERE }] },
      ],
    },
  },
);

// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Only src/cli, src/demo and src/bench start the emulator; the rest of src/ never imports it. */
const NO_EMULATOR = {
  regex: String.raw`^(\./|(\.\./)+)emulator(/|$)`,
  message:
    'Only src/cli, src/demo and src/bench import src/emulator (the emulator depends on the rest of gwops, not the reverse); shared API grammar lives in src/gateway.',
};

/** The kind modules are data and behaviour of their own: they import nothing of src/ outside src/kinds. */
const KINDS_ONLY =
  'src/kinds imports nothing of src/ outside src/kinds (the emulator, reconcile and manifest code depend on the kinds, never the reverse).';

/**
 * The import rules of a file under src/kinds whose way up to src/ is `up` (`../` or `../../`).
 * @param {string} up
 */
function kindsOnly(up) {
  const escaped = up.replace(/\./g, '\\.');
  return {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [{ name: `${up}manifest/diagnostics.js`, allowTypeImports: true, message: `${KINDS_ONLY} Only the type of the diagnostic codes may be imported.` }],
        patterns: [{ regex: `^${escaped}(?!manifest/diagnostics\\.js$)`, message: KINDS_ONLY }],
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bin/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.test.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Import boundaries (docs/architecture.md "Where things live"): dependencies point one
  // way. Each block sets the whole rule for its files (a later block replaces an earlier
  // one's options), so the blocks cover disjoint files.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/demo/**', 'src/bench/**', 'src/emulator/**', 'src/reconcile/**', 'src/kinds/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_EMULATOR] }],
    },
  },
  {
    files: ['src/reconcile/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_EMULATOR,
            {
              regex: String.raw`^(\./|(\.\./)+)(cli|render)(/|$)`,
              message: 'src/reconcile never imports src/cli or src/render: the commands and renderers use reconcile, not the reverse.',
            },
          ],
        },
      ],
    },
  },
  // Every file gwops is given is read through the bounded reader of src/files.ts (regular
  // files only, opened without blocking, size-limited), never with node:fs directly. The
  // emulator's own state file is the emulator's business.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/files.ts', 'src/emulator/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['readFile', 'readFileSync', 'createReadStream', 'open', 'openSync'].map((name) => ({
          selector: `ImportDeclaration[source.value=/^(node:)?fs(\\u002Fpromises)?$/] ImportSpecifier[imported.name="${name}"]`,
          message: `Read files through src/files.ts (readFileBounded and friends), not node:fs ${name}: it refuses FIFOs, devices and directories and bounds the size.`,
        })),
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?fs(\\u002Fpromises)?$/] > :matches(ImportDefaultSpecifier, ImportNamespaceSpecifier)',
          message: 'Import the node:fs functions you need by name (file reads go through src/files.ts).',
        },
        {
          selector: 'ImportExpression[source.value=/^(node:)?fs/]',
          message: 'Import node:fs statically and by name (file reads go through src/files.ts).',
        },
      ],
    },
  },
  // src/kinds: nothing of src/ outside src/kinds, except the diagnostic codes' type
  // (kind.ts names the codes of kind-owned manifest rules), as a type-only import.
  {
    files: ['src/kinds/*.ts'],
    rules: kindsOnly('../'),
  },
  {
    files: ['src/kinds/*/**/*.ts'],
    rules: kindsOnly('../../'),
  },
);

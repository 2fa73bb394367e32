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

/**
 * Tests assert on every pass: an `expect` that a passing run can skip proves nothing.
 * Refused in test/: an `expect` in a `catch` clause or a promise's `.catch` callback (it
 * runs only if the call throws, and a call that stops throwing passes), and an assertion
 * (`expect…`) under an `if` on whether a file exists. A test whose body states its count
 * with `expect.assertions(n)` or `expect.hasAssertions()` (a statement of the test
 * function itself) may keep such an `expect`: vitest then fails when it is skipped.
 * Proven by test/lint/skippable-expect.test.ts.
 */
const COUNTED =
  ":function > BlockStatement:has(> ExpressionStatement[expression.callee.object.name='expect'][expression.callee.property.name=/^(assertions|hasAssertions)$/])";
const SKIPPABLE_EXPECT = [
  {
    selector: `CatchClause CallExpression[callee.name='expect']:not(${COUNTED} *)`,
    message:
      "An expect inside a catch runs only when the call throws: use expect(fn).toThrow(…) / await expect(p).rejects…, or take the error with thrownBy (test/support/thrown.ts) and assert outside the catch, or start the test with expect.assertions(n).",
  },
  {
    selector: `CallExpression[callee.property.name='catch'] > :function CallExpression[callee.name='expect']:not(${COUNTED} *)`,
    message:
      'An expect in a .catch callback runs only when the promise rejects: use await expect(p).rejects…, or start the test with expect.assertions(n).',
  },
  {
    selector: "IfStatement:matches([test.callee.name='existsSync'], [test.argument.callee.name='existsSync']) :matches(CallExpression[callee.name=/^expect/], ReturnStatement[argument=null])",
    message:
      'A check that depends on whether a file exists passes when it does not: assert that it exists (or that it does not) with expect(existsSync(file)).toBe(…), then check it.',
  },
];

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
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SKIPPABLE_EXPECT] },
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

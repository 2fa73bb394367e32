// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Only src/cli, src/demo, the benchmarks (tools/bench) and the emulator's operation (src/operations/emulator.ts) start the emulator; the rest of src/ never imports it. */
const NO_EMULATOR = {
  regex: String.raw`^(\./|(\.\./)+)emulator(/|$)`,
  message:
    'Only src/cli, src/demo and tools/bench import src/emulator (the emulator depends on the rest of gwops, not the reverse); shared API grammar lives in src/gateway.',
};

/**
 * A `no-restricted-imports` pattern that forbids importing the given top-level folders or
 * files of src/ from any depth.
 * @param {string[]} names folder names (`engine`) or module files (`files.js`)
 * @param {string} message
 */
function forbid(names, message) {
  return { regex: String.raw`^(\./|(\.\./)+)(${names.join('|').replace(/\./g, '\\.')})(/|$)`, message };
}

/** Selectors of direct file reads: every file gwops is given is read through src/core/files.ts. */
const FILE_READS = [
  ...['readFile', 'readFileSync', 'createReadStream', 'open', 'openSync'].map((name) => ({
    selector: `ImportDeclaration[source.value=/^(node:)?fs(\\u002Fpromises)?$/] ImportSpecifier[imported.name="${name}"]`,
    message: `Read files through src/core/files.ts (readFileBounded and friends), not node:fs ${name}: it refuses FIFOs, devices and directories and bounds the size.`,
  })),
  {
    selector: 'ImportDeclaration[source.value=/^(node:)?fs(\\u002Fpromises)?$/] > :matches(ImportDefaultSpecifier, ImportNamespaceSpecifier)',
    message: 'Import the node:fs functions you need by name (file reads go through src/core/files.ts).',
  },
  {
    selector: 'ImportExpression[source.value=/^(node:)?fs/]',
    message: 'Import node:fs statically and by name (file reads go through src/core/files.ts).',
  },
];

/**
 * Selectors of a process's exit: exit codes are decided in src/cli/exit.ts and only the
 * entry points end the process (src/cli/process.ts; the scripts in {@link EXIT_ENTRIES}).
 */
const PROCESS_EXIT = [
  {
    selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']",
    message: 'Only the entry point ends the process (src/cli/process.ts): return an exit code or throw a typed error (src/cli/exit.ts maps it).',
  },
  {
    selector: "MemberExpression[object.name='process'][property.name='exitCode']",
    message: 'Only the entry point sets the exit code (src/cli/process.ts): return an exit code or throw a typed error (src/cli/exit.ts maps it).',
  },
];

/** The entry points that end their process: gwops itself, and the scripts of npm run (benchmarks, generators, drills). */
const EXIT_ENTRIES = ['src/cli/process.ts', 'tools/bench/**/*.ts', 'tools/docs/generate.ts', 'tools/docs/drills.ts', 'tools/docs/test-time.ts', 'src/schema/generate.ts', 'tools/release/release.ts', 'tools/release/packed-manifest.ts'];

/**
 * The product never imports the repository's tools (tools/: benchmarks, doc generators,
 * release), which stay out of the package; `#src/…` is the tools' way into src/.
 */
const NO_TOOLS = {
  regex: String.raw`^((\.\./)+tools(/|$)|#src/)`,
  message: 'src/ is the product and never imports tools/ (the benchmarks, doc generators and release tooling are not in the package).',
};

/**
 * The tools import the product as `#src/<module>.js` (package.json "imports": src/ under
 * tsc and vitest, dist/ when run with node), never by a relative path out of tools/: that
 * path would name src/*.ts from dist-tools/ at run time.
 */
const TOOLS_IMPORT_SRC = {
  regex: String.raw`^(\.\./){2,}`,
  message: "tools/ imports the product as '#src/<module>.js' (package.json \"imports\"), never by a relative path out of tools/.",
};

const NO_NODE = { regex: '^node:', message: 'src/engine is pure: no node:* module (digests come from src/crypto/digest.ts).' };

/**
 * The import directions (docs/architecture.md "Where things live"), bottom first:
 * api, diagnostics and the other one-file modules; kinds and schema; manifest; engine;
 * export and adopt; gateway; operations; render; cli, demo, bench, emulator.
 * Each entry: the files, and the folders or modules they never import.
 * @type {[string[], string[], string][]}
 */
const LAYERS = [
  [['src/api/**/*.ts'], ['engine', 'operations', 'manifest', 'gateway', 'kinds', 'schema', 'cli', 'render', 'adopt', 'export', 'jwks', 'emulator', 'demo', 'bench', 'docs'], 'src/api is the API grammar at the bottom: it imports nothing of gwops.'],
  [['src/kinds/**/*.ts'], ['engine', 'operations', 'manifest', 'gateway', 'schema', 'cli', 'render', 'adopt', 'export', 'jwks', 'emulator', 'demo', 'bench', 'docs', 'core/errors.js', 'core/files.js', 'core/secrets.js'], 'src/kinds imports nothing of src/ outside src/kinds but the bottom modules (src/api, src/core/diagnostics.ts, src/core/object-key.ts, src/core/display.ts): the rest of gwops depends on the kinds, never the reverse.'],
  [['src/manifest/**/*.ts'], ['engine', 'operations', 'gateway', 'cli', 'render', 'adopt', 'export', 'emulator', 'demo', 'bench', 'docs'], 'src/manifest reads and checks manifests; the engine and the operations use it, never the reverse.'],
  [['src/engine/**/*.ts'], ['operations', 'gateway', 'cli', 'render', 'adopt', 'export', 'emulator', 'demo', 'bench', 'docs', 'core/files.js', 'core/secrets.js', 'core/interrupts.js', 'core/out-paths.js', 'jwks/fetch.js', 'jwks/resolve.js', 'manifest/index.js', 'manifest/project.js', 'manifest/collect.js', 'schema/schema-files.js'], 'src/engine is pure: no I/O module, no gateway client, no operation, no renderer.'],
  [['src/export/**/*.ts', 'src/adopt/**/*.ts'], ['operations', 'cli', 'render', 'emulator', 'demo', 'bench', 'docs'], 'src/export and src/adopt turn engine data into manifests; the operations use them, never the reverse.'],
  [['src/gateway/**/*.ts'], ['engine', 'operations', 'manifest', 'kinds', 'schema', 'cli', 'render', 'adopt', 'export', 'emulator', 'demo', 'bench', 'docs'], 'src/gateway is the REST client: it knows the API grammar (src/api), not the reconciler.'],
  [['src/operations/**/*.ts'], ['cli', 'render', 'emulator', 'demo', 'bench', 'docs'], 'src/operations return data; the commands and views render it.'],
  [['src/render/**/*.ts'], ['operations', 'cli', 'gateway', 'emulator', 'demo', 'bench', 'docs'], 'src/render turns data into text; it never calls a gateway or an operation.'],
];

/**
 * Tests assert on every pass: an `expect` that a passing run can skip proves nothing.
 * Refused in test/: an `expect` in a `catch` clause or a promise's `.catch` callback (it
 * runs only if the call throws, and a call that stops throwing passes), and an assertion
 * (`expect…`) under an `if` on whether a file exists, and a test or suite that runs only
 * when a file exists or an environment variable is set (`it.skipIf(!existsSync(…))`,
 * `describe.runIf(process.env.X)`): without what it needs it must fail, not skip. A test whose body states its count
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
  {
    selector:
      "CallExpression[callee.property.name=/^(skipIf|runIf)$/] :matches(CallExpression[callee.name='existsSync'], MemberExpression[object.name='process'][property.name='env'])",
    message:
      'A test that runs only when a file exists or an environment variable is set passes without checking everywhere else: let it fail when what it needs is missing (e.g. test/support/pseudo-terminal.ts), and install that in .ci/run.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-tools/**', 'node_modules/**', 'coverage/**', 'bin/**', 'eslint.config.js'] },
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
    ignores: ['src/cli/**', 'src/demo/**', 'src/emulator/**', ...LAYERS.flatMap(([files]) => files)],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_EMULATOR, NO_TOOLS] }],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/demo/**/*.ts', 'src/emulator/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TOOLS] }] },
  },
  {
    files: ['tools/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TOOLS_IMPORT_SRC] }] },
  },
  ...LAYERS.map(([files, names, message]) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [NO_EMULATOR, NO_TOOLS, forbid(names, message), ...(files[0] === 'src/engine/**/*.ts' ? [NO_NODE] : [])] },
      ],
    },
  })),
  // The use case `emulator` (src/operations/emulator.ts) is the one operation that starts the emulator.
  {
    files: ['src/operations/emulator.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [forbid(['cli', 'render', 'demo', 'bench', 'docs'], 'src/operations return data; the commands and views render it.')] }],
    },
  },
  // Every file gwops is given is read through the bounded reader of src/core/files.ts (regular
  // files only, opened without blocking, size-limited), never with node:fs directly. The
  // emulator's own state file is the emulator's business.
  // Only the entry points end the process or set its exit code (PROCESS_EXIT).
  {
    files: ['src/**/*.ts', 'tools/**/*.ts'],
    ignores: ['src/core/files.ts', 'src/emulator/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...FILE_READS,
        ...PROCESS_EXIT,
      ],
    },
  },
  {
    files: ['src/core/files.ts', 'src/emulator/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...PROCESS_EXIT] },
  },
  {
    files: EXIT_ENTRIES,
    rules: { 'no-restricted-syntax': ['error', ...FILE_READS] },
  },
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SKIPPABLE_EXPECT] },
  },
  // The engine is pure: no clock, no environment, no timers, no network (the operations
  // pass in what it needs, e.g. the time `now` as a parameter).
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['process', 'fetch', 'setTimeout', 'setInterval', 'setImmediate', 'performance', 'console'].map((name) => ({
          name,
          message: `src/engine is pure: no ${name}; an operation passes in what the engine needs.`,
        })),
      ],
      'no-restricted-syntax': [
        'error',
        ...FILE_READS,
        { selector: "MemberExpression[object.name='Date'][property.name='now']", message: 'src/engine is pure: no clock; take the time as a parameter.' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'src/engine is pure: no clock; take the time as a parameter.' },
        { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'src/engine is pure: no randomness.' },
        ...PROCESS_EXIT,
      ],
    },
  },
);

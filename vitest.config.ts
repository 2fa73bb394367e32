import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that replace a module (`vi.mock`) need a fresh module registry: they run
 * isolated. Every other file shares its worker's modules with the files before it
 * (`isolate: false`), which spares re-importing gwops for each file: the suite takes less
 * than half the time. A file that mocks a module, stubs a global or changes the working
 * directory belongs in this list (test/architecture/test-isolation.test.ts checks it).
 */
export const ISOLATED_TESTS = ['test/emulator/conformance/persistence-crash.test.ts'];

const include = ['test/**/*.test.ts', 'src/**/*.test.ts'];

/**
 * The tools (tools/) import the product as `#src/<module>.js` (package.json "imports",
 * dist/ when run with node): here it is src/, as tsconfig.test.json's `gwops-source`
 * condition makes it for the type check, so a test and the tool it tests share one copy of
 * each module. An alias, not the condition: vitest would hand a condition on to every
 * process a test starts (`--conditions`), and a built tool started so would look for src/.
 */
const SOURCE_ALIAS = { find: /^#src\/(.*)$/, replacement: `${import.meta.dirname}/src/$1` };

export default defineConfig({
  resolve: { alias: [SOURCE_ALIAS] },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Three workers on the two cores CI has: many end-to-end files spend their time waiting on the CLI and emulator
    // processes they start, and a third worker fills that time (about a sixth off the suite's wall-clock time).
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'shared', include, exclude: [...configDefaults.exclude, ...ISOLATED_TESTS], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED_TESTS, isolate: true } },
    ],
  },
});

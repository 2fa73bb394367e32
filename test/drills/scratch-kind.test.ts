/**
 * A new kind is one folder and one registry line (CONTRIBUTING.md "Adding a resource kind"),
 * shown on a real one: in a copy of the repository (its node_modules linked, not copied) a
 * throw-away kind, `network-endpoint` (three attributes and a to-one link to a virtual
 * host), gets its folder under src/kinds/ and its line in the registry, nothing else is
 * written by hand, `npm run generate` makes everything that follows from them (for a kind
 * that did not exist at the last build), and then the test type check and the tests that
 * walk every kind pass in the copy.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../e2e/harness.js';
import { drillMode } from './record.js';

/**
 * The whole proof takes one to two minutes (two builds, the test type check, the
 * walkthrough against the emulator), too long for every `npm test`, which runs its cheap
 * part; `npm run drills` (GWOPS_DRILLS=full) runs all of it. It records no figures: its
 * one promise holds or the test fails.
 */
const FULL = drillMode() === 'full';

/**
 * The tests of the copy that enumerate the kinds, or read the files the generator writes.
 * The cheap part builds the copy with `npm run schemas` (tsc over src/, the schema
 * generator, the precompiled validators) and runs the fast ones; the full part runs
 * `npm run generate` (the docs too), the test type check and all of them.
 */
const KIND_LEVEL_TESTS = [
  'test/kinds/new-kind.test.ts',
  'test/kinds/hooks.test.ts',
  'test/kinds/no-kind-literals.test.ts',
  'test/schema',
  'test/manifest/corpus.test.ts',
  'test/manifest/editor-schema.test.ts',
  'test/manifest/precompile.test.ts',
  ...(FULL ? ['test/kinds/walkthrough.test.ts', 'test/docs/generated.test.ts'] : []),
];

/** The throw-away kind's folder, file by file: all that a person writes for it. */
const KIND_FOLDER: Record<string, string> = {
  'index.ts': `import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/** \`network-endpoint\`: an address and port a virtual host listens on (a throw-away kind). */
export const networkEndpoint = {
  type: 'network-endpoint',
  attributes,
  description: 'A network endpoint of a virtual host',
  emulator,
  collection: 'network-endpoints',
  level: 3,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'virtual-host': { name: 'virtual-host', target: 'virtual-host', cardinality: 'one', inverse: 'network-endpoints', inverseCardinality: 'many', canonical: true },
  },
} as const satisfies KindModule;
`,
  'attributes.schema.json': `${JSON.stringify(
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', description: 'Logical name (gwops identity)' },
        address: { type: 'string', minLength: 1, description: 'Host name or IP address' },
        port: { type: 'integer', minimum: 1, maximum: 65535, description: 'TCP port' },
        enabled: { type: 'boolean', description: 'Whether the endpoint accepts connections' },
      },
    },
    null,
    2,
  )}\n`,
  'emulator.ts': `import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for \`network-endpoint\`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'network endpoint',
  defaults: { extra: { name: '', address: '', port: 443, enabled: true } },
};
`,
  'example.ts': `import type { ExampleHook } from '../example.js';

/** An endpoint on a port (valid on its own); the update moves it to another port. */
export const example: ExampleHook = (name) => ({
  attributes: { address: \`\${name}.example.internal\`, port: 8443, enabled: true },
  update: { port: 9443 },
});
`,
};

const copy = mkdtempSync(path.join(tmpdir(), 'gwops-scratch-kind-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** Runs `command` in the copy; the parent test run's own variables are left out. */
function inCopy(command: string, args: readonly string[]): { status: number | null; output: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'));
  const run = spawnSync(command, args, { cwd: copy, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}`.slice(-8000) };
}

describe('a new kind in a scratch copy of the repository', () => {
  it(`is its folder and its registry line: ${FULL ? 'npm run generate, the test type check' : 'npm run schemas (the build type-checks src/)'} and the kind-level tests pass`, () => {
    const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    const files = listed.stdout.split('\0').filter((file) => file !== '');
    for (const file of files) {
      mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      cpSync(path.join(REPO, file), path.join(copy, file), { dereference: false, errorOnExist: false, force: true });
    }
    symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'), 'dir');

    const folder = path.join(copy, 'src', 'kinds', 'network-endpoint');
    mkdirSync(folder);
    for (const [name, text] of Object.entries(KIND_FOLDER)) writeFileSync(path.join(folder, name), text);
    const registryFile = path.join(copy, 'src', 'kinds', 'index.ts');
    const registry = readFileSync(registryFile, 'utf8');
    const withKind = registry
      .replace(/^(import .* from '\.\/virtual-host\/index\.js';)$/m, "$1\nimport { networkEndpoint } from './network-endpoint/index.js';")
      .replace(/^(\s+)virtualHost,$/m, '$1virtualHost,\n$1networkEndpoint,');
    expect(withKind.split('\n').length - registry.split('\n').length).toBe(2);
    writeFileSync(registryFile, withKind);

    const generate = inCopy('npm', ['run', FULL ? 'generate' : 'schemas', '--silent']);
    expect(generate.status, generate.output).toBe(0);
    expect(readFileSync(path.join(copy, 'schemas', 'network-endpoint.schema.json'), 'utf8')).toContain('"const": "network-endpoint"');
    expect(readFileSync(path.join(copy, 'schemas', 'virtual-host.schema.json'), 'utf8')).toContain('"network-endpoints"');
    expect(existsSync(path.join(copy, 'dist', 'validators', 'network-endpoint.cjs'))).toBe(true);
    if (FULL) expect(readFileSync(path.join(copy, 'docs', 'manifest-reference.md'), 'utf8')).toContain('## network-endpoint\n');

    const typecheck = FULL ? inCopy('npx', ['tsc', '-p', 'tsconfig.test.json', '--noEmit']) : { status: 0, output: '' };
    expect(typecheck.status, typecheck.output).toBe(0);

    const report = path.join(copy, 'kind-level-tests.json');
    const tests = inCopy('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${report}`, ...KIND_LEVEL_TESTS]);
    expect(tests.status, tests.output).toBe(0);
    const results = (JSON.parse(readFileSync(report, 'utf8')) as { testResults: { assertionResults: { fullName: string; status: string }[] }[] }).testResults.flatMap((file) => file.assertionResults);
    expect(results.filter((r) => r.status === 'failed')).toEqual([]);
    expect(results.filter((r) => r.status === 'passed' && r.fullName.includes('network-endpoint')).length).toBeGreaterThan(0);
  }, 300_000);
});

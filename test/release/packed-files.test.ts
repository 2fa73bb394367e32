/**
 * The package holds the product alone: what `npm pack` would put in the tarball (its
 * `--dry-run --json` listing of this checkout, dist/ as `npm test` built it) has no file of
 * the repository's tools (tools/: benchmarks, doc generators, release tooling; built into
 * dist-tools/), and every module under dist/ is one the product loads: reachable by its
 * imports (static and dynamic) from the installed entry points (`bin`, `main`, `exports`)
 * or one of the build steps that package.json runs from dist/. A tool moved back into src/
 * fails here: no entry point imports it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRECOMPILED_DIR } from '../../src/manifest/precompiled.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface PackageJson {
  readonly bin: Record<string, string>;
  readonly main: string;
  readonly exports: Record<string, string>;
  readonly scripts: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The npm scripts that may run a module of dist/: the product's build steps (everything else runs from dist-tools/). */
const BUILD_STEPS = new Set(['build', 'schemas']);

/** The files `npm pack` would put in the tarball, repository-relative, without running a lifecycle script. */
function packedFiles(): string[] {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const [listing] = JSON.parse(r.stdout) as { files: { path: string }[] }[];
  return (listing?.files ?? []).map((f) => f.path).sort();
}

/** `{script: module}` for every `node <module>.js` an npm script runs. */
function scriptModules(): [string, string][] {
  return Object.entries(pkg.scripts).flatMap(([name, command]) =>
    [...command.matchAll(/\bnode(?: --[\w-]+)* ((?:dist|dist-tools)\/\S+\.js)\b/g)].map((m): [string, string] => [name, m[1] ?? '']),
  );
}

/** The relative modules a JavaScript file imports: `from '…'`, `import '…'` and `import('…')`. */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] ?? '');
  return found.map((spec) => posix.normalize(posix.join(posix.dirname(file), spec)));
}

/**
 * Every module reachable by imports from `entries` (repository-relative `.js` paths), the
 * imports of each module's declarations (`.d.ts`, the package's types) included: a module
 * only types import is part of the product too.
 */
function reachable(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    expect(existsSync(join(ROOT, file)), `${file} is imported but not built`).toBe(true);
    const declarations = file.replace(/\.js$/, '.d.ts');
    const sources = existsSync(join(ROOT, declarations)) ? [file, declarations] : [file];
    queue.push(...sources.flatMap((source) => relativeImports(source).map((spec) => spec.replace(/\.d\.ts$/, '.js'))));
  }
  return seen;
}

/** Every `.ts` file under `dir`, relative to it. */
function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split('\\').join('/'));
}

describe('npm pack', () => {
  const files = packedFiles();
  const dist = files.filter((f) => f.startsWith('dist/'));

  it('holds no file of tools/ or dist-tools/', () => {
    expect(dist.length).toBeGreaterThan(0);
    expect(files.filter((f) => /^(tools|dist-tools)\//.test(f))).toEqual([]);
    const tools = tsFiles('tools');
    expect(tools.length).toBeGreaterThan(0);
    const builtTools = new Set(tools.flatMap((f) => ['.js', '.d.ts', '.js.map'].map((ext) => `dist/${f.replace(/\.ts$/, ext)}`)));
    expect(dist.filter((f) => builtTools.has(f))).toEqual([]);
  });

  it('runs only the build steps from dist/: every other npm script that runs a module runs one of dist-tools/', () => {
    const modules = scriptModules();
    expect(modules.map(([name]) => name)).toEqual(expect.arrayContaining(['bench', 'docs', 'release', 'prepack']));
    expect(modules.filter(([name, module]) => module.startsWith('dist/') && !BUILD_STEPS.has(name))).toEqual([]);
  });

  it('has under dist/ only modules the product loads (and the validators it precompiles)', () => {
    const entries = [...Object.values(pkg.bin), pkg.main, ...Object.values(pkg.exports)].map((f) => posix.normalize(f));
    const buildSteps = scriptModules().filter(([name, module]) => BUILD_STEPS.has(name) && module.startsWith('dist/')).map(([, module]) => module);
    expect(entries).toContain('bin/gwops.js');
    const product = reachable([...entries, ...buildSteps]);
    expect(product.has('dist/cli/process.js')).toBe(true);
    const validators = `dist/${relative(join(ROOT, 'src'), fileURLToPath(PRECOMPILED_DIR)).split('\\').join('/')}/`;
    const stray = dist.filter((f) => {
      if (f.startsWith(validators)) return !f.endsWith('.cjs');
      const module = f.replace(/(\.d\.ts|\.js\.map)$/, '.js');
      return !product.has(module);
    });
    expect(stray, 'modules under dist/ that the product never loads: a tool moved into src/, or output of an older build (remove dist/, then npm run build)').toEqual([]);
    expect(dist.some((f) => f.startsWith(validators))).toBe(true);
  });
});

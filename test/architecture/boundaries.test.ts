/**
 * The shape of src/ (docs/architecture.md "Where things live"): the folders import each
 * other in one direction only, the pure engine imports no I/O, no gateway client, no
 * clock and no environment, and ESLint enforces both (eslint.config.js), so these tests
 * check that the rules fire, and that the graph they allow has no cycle.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { reachableModules } from './module-graph.js';
import type { ReachedModule } from './module-graph.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The project's ESLint config (a JavaScript module, so typed here by what these tests read of it). */
const config = ((await import(path.join(ROOT, 'eslint.config.js'))) as { default: unknown[] }).default;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** The top-level unit of src/ a file belongs to: its folder, or the file itself for one-file modules. */
function unitOf(file: string): string {
  const [first = '', second] = path.relative(path.join(ROOT, 'src'), file).split(path.sep);
  return second === undefined ? first.replace(/\.ts$/, '') : first;
}

/** Linting with only the import-boundary and purity rules of the project's config (no type information needed). */
function boundaryLinter(): ESLint {
  const rules = new Set(['no-restricted-imports', 'no-restricted-globals', 'no-restricted-syntax']);
  const blocks = (config as { files?: string[]; ignores?: string[]; rules?: Record<string, unknown> }[])
    .filter((b) => b.files && b.rules && Object.keys(b.rules).some((r) => rules.has(r)))
    .map((b) => ({ files: b.files, ...(b.ignores ? { ignores: b.ignores } : {}), rules: b.rules }));
  return new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...(blocks as ESLint.Options['overrideConfig'] & object[])],
  });
}

describe('import directions', () => {
  it('the folders and one-file modules of src/ import each other without a cycle', async () => {
    const edges = new Map<string, Set<string>>();
    for (const file of sourceFiles(path.join(ROOT, 'src'))) {
      const from = unitOf(file);
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
        const to = unitOf(path.resolve(path.dirname(file), match[1] ?? ''));
        if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (unit: string, trail: string[]): void => {
      if (state.get(unit) === 'done') return;
      if (state.get(unit) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(unit)), unit].join(' → '));
        return;
      }
      state.set(unit, 'open');
      for (const next of edges.get(unit) ?? []) visit(next, [...trail, unit]);
      state.set(unit, 'done');
    };
    for (const unit of edges.keys()) visit(unit, []);
    expect(edges.get('engine')?.size ?? 0).toBeGreaterThan(0);
    expect(cycles).toEqual([]);
  });

  const cases: [string, string][] = [
    ['src/engine/order.ts', "import { readFile } from 'node:fs/promises';"],
    ['src/engine/order.ts', "import { withSession } from '../gateway/index.js';"],
    ['src/engine/order.ts', "import { runPlan } from '../operations/plan.js';"],
    ['src/engine/order.ts', "import { FILE_LIMITS } from '../core/files.js';"],
    ['src/engine/diff.ts', "import { loadSchemaFile } from '../schema/schema-files.js';"],
    ['src/engine/order.ts', 'export const when = Date.now();'],
    ['src/engine/order.ts', 'export const env = process.env.HOME;'],
    ['src/manifest/types.ts', "import type { Plan } from '../engine/plan-types.js';"],
    ['src/api/filter.ts', "import { KINDS } from '../kinds/index.js';"],
    ['src/kinds/values.ts', "import { loadProject } from '../manifest/project.js';"],
    ['src/gateway/retry.ts', "import type { Plan } from '../engine/plan-types.js';"],
    ['src/operations/plan.ts', "import { renderText } from '../render/text.js';"],
    ['src/render/text.ts', "import { runPlan } from '../operations/plan.js';"],
    ['src/export/build.ts', "import { runExport } from '../operations/export.js';"],
    ['src/gateway/lifecycle.ts', 'process.exit(1);'],
    ['src/core/generated-files.ts', 'process.exitCode = 1;'],
    ['src/cli/main.ts', 'process.exit(0);'],
    ['src/cli/exit.ts', 'export const code = () => (process.exitCode = 2);'],
    ['src/engine/order.ts', 'export const end = () => process.exitCode;'],
    ['src/emulator/server.ts', 'process.exit(1);'],
  ];
  it('the entry points may end their process: src/cli/process.ts and the npm scripts lint clean', async () => {
    for (const file of ['src/cli/process.ts', 'tools/docs/generate.ts', 'src/schema/generate.ts', 'tools/docs/drills.ts', 'tools/bench/emulator.ts']) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      expect(text).toMatch(/process\.exit/);
      const [result] = await boundaryLinter().lintText(text, { filePath: path.join(ROOT, file) });
      expect(result?.messages.filter((m) => m.severity === 2)).toEqual([]);
    }
  });

  it.each(cases)('%s may not: %s', async (file, line) => {
    const original = await readFile(path.join(ROOT, file), 'utf8');
    const [clean] = await boundaryLinter().lintText(original, { filePath: path.join(ROOT, file) });
    const [dirty] = await boundaryLinter().lintText(`${line}\n${original}`, { filePath: path.join(ROOT, file) });
    expect(clean?.messages.filter((m) => m.severity === 2)).toEqual([]);
    const rules = dirty?.messages.filter((m) => m.line === 1).map((m) => m.ruleId) ?? [];
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.every((r) => r?.startsWith('no-restricted-'))).toBe(true);
  });
});

describe('the tools (tools/) and the product (src/)', () => {
  const cases: [string, string][] = [
    ['src/engine/order.ts', "import { headingAnchors } from '../../tools/docs/markdown.js';"],
    ['src/cli/process.ts', "import { machineInfo } from '../../tools/bench/report-doc.js';"],
    ['src/emulator/server.ts', "import { FILE_LIMITS } from '#src/core/files.js';"],
    ['tools/docs/generate.ts', "import { KINDS } from '../../src/kinds/index.js';"],
  ];
  it.each(cases)('%s may not: %s', async (file, line) => {
    const original = await readFile(path.join(ROOT, file), 'utf8');
    const [clean] = await boundaryLinter().lintText(original, { filePath: path.join(ROOT, file) });
    const [dirty] = await boundaryLinter().lintText(`${line}\n${original}`, { filePath: path.join(ROOT, file) });
    expect(clean?.messages.filter((m) => m.severity === 2)).toEqual([]);
    expect(dirty?.messages.filter((m) => m.line === 1).map((m) => m.ruleId)).toEqual(['no-restricted-imports']);
  });
});

/** The gateway client (src/gateway/) and the bounded file reader (src/core/files.ts): I/O, by path. */
const IO_MODULES = [path.join(ROOT, 'src', 'gateway') + path.sep, path.join(ROOT, 'src', 'core', 'files.ts')];

/**
 * Why a module reached from the engine breaks its purity, one line per import: a `node:*`
 * (or bare Node built-in) module, `node:crypto` included (digests are pure JavaScript,
 * src/crypto/digest.ts; keys and certificates are read through the ports of
 * src/crypto/port.ts, handed in), undici, the gateway client, src/core/files.ts, or a
 * dynamic import that cannot be followed.
 */
function impurities(modules: readonly ReachedModule[]): string[] {
  const builtins = new Set(builtinModules);
  const rel = (file: string): string => path.relative(ROOT, file);
  return modules.flatMap((m) => {
    if (IO_MODULES.some((io) => m.file === io || m.file.startsWith(io))) return [`${m.chain.map(rel).join(' → ')}: an I/O module`];
    return m.imports.flatMap((edge) => {
      const via = `${m.chain.map(rel).join(' → ')} imports ${edge.form === 'static' ? '' : `(${edge.form}) `}'${edge.specifier}'`;
      if (edge.opaque) return [`${via}: a dynamic import the check cannot follow`];
      if (edge.specifier.startsWith('node:') || builtins.has(edge.specifier)) return [`${via}: a Node built-in module`];
      if (edge.specifier === 'undici' || edge.specifier.startsWith('undici/')) return [`${via}: the HTTP client`];
      return [];
    });
  });
}

const ENGINE_FILES = sourceFiles(path.join(ROOT, 'src', 'engine'));
const fromDisk = (file: string): string => readFileSync(file, 'utf8');
/** The disk, with `line` added on top of `file` (a planted violation, never written). */
const planted = (file: string, line: string) => (read: string): string => (read === path.join(ROOT, file) ? `${line}\n${fromDisk(read)}` : fromDisk(read));

describe('the engine is pure transitively', () => {
  it('no module reachable from src/engine (any import form) does I/O: no node:* (node:crypto included), no src/core/files.ts, no gateway client', () => {
    const modules = reachableModules(ENGINE_FILES);
    expect(modules.map((m) => path.relative(ROOT, m.file))).toEqual(expect.arrayContaining(['src/schema/index.ts', 'src/kinds/index.ts']));
    expect(impurities(modules)).toEqual([]);
  });

  const plants: [string, string, RegExp][] = [
    ['src/schema/index.ts', "import { readFileSync } from 'node:fs';", /src\/schema\/index\.ts imports 'node:fs'/],
    ['src/kinds/values.ts', "import type { Stats } from 'fs';", /src\/kinds\/values\.ts imports \(type\) 'fs'/],
    ['src/engine/order.ts', "export const load = () => import('../core/files.js');", /src\/core\/files\.ts: an I\/O module/],
    ['src/schema/kind-schema.ts', "export { readTextBounded } from '../core/files.js';", /src\/core\/files\.ts: an I\/O module/],
    ['src/crypto/digest.ts', "import { randomBytes } from 'node:crypto';", /src\/crypto\/digest\.ts imports 'node:crypto'/],
    ['src/crypto/digest.ts', "import { createHash } from 'node:crypto';", /src\/crypto\/digest\.ts imports 'node:crypto': a Node built-in module/],
    ['src/jwks/keys.ts', "import type { KeyObject } from 'node:crypto';", /src\/jwks\/keys\.ts imports \(type\) 'node:crypto'/],
    ['src/kinds/ssl-certificate/rules.ts', "import { X509Certificate } from 'node:crypto';", /src\/kinds\/ssl-certificate\/rules\.ts imports 'node:crypto'/],
    ['src/engine/diff.ts', "import { pemThumbprint } from '../jwks/node-keys.js';", /src\/jwks\/node-keys\.ts imports 'node:crypto'/],
    ['src/kinds/identity.ts', "export type Client = import('../gateway/index.js').GatewaySession;", /src\/gateway\/index\.ts: an I\/O module/],
    ['src/engine/plan.ts', "export const any = (name: string) => import(name);", /a dynamic import the check cannot follow/],
    ['src/schema/urls.ts', "import { fetch } from 'undici';", /'undici': the HTTP client/],
  ];
  it.each(plants)('fails on a planted violation in %s: %s', (file, line, reported) => {
    expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    const found = impurities(reachableModules(ENGINE_FILES, planted(file, line)));
    expect(found.some((problem) => reported.test(problem)), found.join('\n')).toBe(true);
  });
});

/**
 * `gwops init`: a new project validates as it stands (and draws), nothing that exists is
 * overwritten, and `--from-gateway` exports a live gateway into manifests/ whose plan is
 * empty.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIANTS } from '../../src/kinds/index.js';
import { EXAMPLE_SHOP_TLS_KEY, EXAMPLE_WILDCARD_TLS_KEY } from '../../src/demo/example-keys.js';
import { DEMO_PROJECT, certificateKeyEnv, startHarness, useHarness } from './harness.js';
import { parseFlowchart } from '../render/mermaid-syntax.js';

async function allFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await allFiles(full, base)));
    else out.push(full.slice(base.length + 1));
  }
  return out.sort();
}

describe('gwops init', () => {
  const t = useHarness();

  it('writes a commented project that validates as it stands, and never overwrites', async () => {
    const dir = join(t.h.dir, 'new-project');
    const init = await t.h.cli(['init', dir]);
    expect(init.code).toBe(0);
    expect(await allFiles(dir)).toEqual(['.github/workflows/gwops.yml', '.gitignore', 'gwops.yaml', 'manifests/example.yaml']);
    expect(init.stdout.trim().split('\n')).toHaveLength(4);
    const project = await readFile(join(dir, 'gwops.yaml'), 'utf8');
    expect(project).toMatch(/^ {4}apiKeyEnv: GWOPS_API_KEY$/m);
    expect(project).toMatch(/^ownership:$/m);
    expect(project).toMatch(/^# /m);
    expect(await readFile(join(dir, '.github/workflows/gwops.yml'), 'utf8')).toMatch(/uses: your-org\/gwops@v1/);

    const validate = await t.h.cli(['validate'], { cwd: dir });
    expect(validate.stderr).toBe('');
    expect(validate.stdout).toMatch(/^3 documents valid/m);
    expect(validate.code).toBe(0);
    const graph = await t.h.cli(['graph'], { cwd: dir });
    expect(graph.code).toBe(0);
    const chart = parseFlowchart(graph.stdout);
    expect(chart.nodes.size).toBe(3);
    expect(chart.edges).toHaveLength(2);

    // A second init changes nothing; a .gitignore of the user's own gets the lines it lacks, nothing else is touched.
    const again = await t.h.cli(['init', dir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^kept +\S*gwops\.yaml \(it exists\)$/m);
    await writeFile(join(dir, '.gitignore'), 'mine\n');
    const appended = await t.h.cli(['init', dir]);
    expect(appended.code).toBe(0);
    expect(appended.stdout.trim()).toMatch(/\.gitignore$/);
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toMatch(/^mine\n\n# Added by `gwops init`.*\n\.env\n/);
  });

  it('refuses connection options without --from-gateway', async () => {
    const r = await t.h.cli(['init', join(t.h.dir, 'no-gateway'), ...t.h.connection]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--url, --api-key-file, --ca-file only with --from-gateway/);
  });

  it('fills manifests/ from a live gateway with --from-gateway; the plan of the result is empty', async () => {
    expect((await t.h.cli(['apply', '--yes', '--config', DEMO_PROJECT, ...t.h.connection, '--comment', 'examples'])).code).toBe(0);
    const dir = join(t.h.dir, 'adopted');
    const init = await t.h.cli(['init', dir, '--from-gateway', ...t.h.connection]);
    expect(init.stderr).not.toMatch(/^Error/m);
    expect(init.code).toBe(0);
    const files = await allFiles(dir);
    expect(files).toEqual(expect.arrayContaining(['.github/workflows/gwops.yml', '.gitignore', 'gwops.yaml', 'secrets.env.example', 'manifests/mapping/shop-home.yaml']));
    expect(files.filter((f) => !f.startsWith('manifests/') && f.endsWith('.yaml'))).toEqual(['gwops.yaml']);
    const project = await readFile(join(dir, 'gwops.yaml'), 'utf8');
    expect(project).toMatch(/^manifests:/m);
    expect(project).toContain('- manifests/mapping');
    const example = await readFile(join(dir, 'secrets.env.example'), 'utf8');
    const placeholders = Object.fromEntries([...example.matchAll(/^([A-Z0-9_]+)=(?:'')?$/gm)].map((m) => [m[1] ?? '', 'placeholder-not-a-secret']));
    // A certificate's private key must be its own: the examples' keys, for the certificates the gateway got from them.
    const manifests = await Promise.all((await readdir(join(dir, 'manifests'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8')));
    const env = { ...placeholders, ...certificateKeyEnv(manifests, [EXAMPLE_SHOP_TLS_KEY, EXAMPLE_WILDCARD_TLS_KEY]) };
    expect(Object.keys(env).length).toBeGreaterThan(0);
    const validate = await t.h.cli(['validate'], { cwd: dir, env });
    expect(validate.code).toBe(0);
    const plan = await t.h.cli(['plan', ...t.h.connection, '--detailed-exitcode'], { cwd: dir, env });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });
});

describe('gwops init on a fresh gateway of every variant', () => {
  for (const variant of VARIANTS) {
    it(`${variant}: the starter validates, plans and applies cleanly, and then plans no changes`, async () => {
      const h = await startHarness({ variant });
      try {
        const dir = join(h.dir, 'starter');
        expect((await h.cli(['init', dir])).code).toBe(0);
        const connection = [...h.connection, '--variant', variant];
        const validate = await h.cli(['validate', '--variant', variant], { cwd: dir });
        expect(validate.stderr).toBe('');
        expect(validate.code).toBe(0);
        const plan = await h.cli(['plan', ...connection], { cwd: dir });
        expect(plan.stderr).toBe('');
        expect(plan.code, plan.stdout).toBe(0);
        const apply = await h.cli(['apply', '--yes', ...connection], { cwd: dir });
        expect(apply.stderr).toBe('');
        expect(apply.stdout).toContain('Apply complete');
        expect(apply.code).toBe(0);
        const again = await h.cli(['plan', '--detailed-exitcode', ...connection], { cwd: dir });
        expect(again.stdout).toContain('No changes');
        expect(again.code).toBe(0);
      } finally {
        await h.close();
      }
    });

    it(`${variant}: init --from-gateway on an empty gateway writes the example into a project that validates and applies cleanly`, async () => {
      const h = await startHarness({ variant });
      try {
        const dir = join(h.dir, 'adopted-empty');
        const init = await h.cli(['init', dir, '--from-gateway', ...h.connection, '--variant', variant]);
        expect(init.stderr).not.toMatch(/^Error/m);
        expect(init.stderr).toContain('holds no object to export');
        expect(init.code).toBe(0);
        expect(await allFiles(dir)).toEqual(['.github/workflows/gwops.yml', '.gitignore', 'gwops.yaml', 'manifests/example.yaml']);
        const validate = await h.cli(['validate', '--variant', variant], { cwd: dir });
        expect(validate.stderr).toBe('');
        expect(validate.code).toBe(0);
        const apply = await h.cli(['apply', '--yes', ...h.connection, '--variant', variant], { cwd: dir });
        expect(apply.stderr).toBe('');
        expect(apply.code).toBe(0);
      } finally {
        await h.close();
      }
    });
  }
});

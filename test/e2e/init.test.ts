/**
 * `gwops init`: a new project validates as it stands (and draws), nothing that exists is
 * overwritten, and `--from-gateway` exports a live gateway into manifests/ whose plan is
 * empty.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_SHOP_TLS_KEY, EXAMPLE_WILDCARD_TLS_KEY } from '../../src/demo/example-keys.js';
import { DEMO_PROJECT, certificateKeyEnv, useHarness } from './harness.js';
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

    // A second init changes nothing, even where only some files exist.
    await writeFile(join(dir, '.gitignore'), 'mine\n');
    const again = await t.h.cli(['init', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/never overwrites anything, and .* already has gwops\.yaml, manifests\/example\.yaml, \.gitignore, \.github\/workflows\/gwops\.yml; nothing was written/);
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('mine\n');
    const partial = join(t.h.dir, 'partial');
    await mkdir(partial);
    await writeFile(join(partial, '.gitignore'), 'mine\n');
    const refused = await t.h.cli(['init', partial]);
    expect(refused.code).toBe(1);
    expect(await allFiles(partial)).toEqual(['.gitignore']);
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
    const placeholders = Object.fromEntries([...example.matchAll(/^([A-Z0-9_]+)=$/gm)].map((m) => [m[1] ?? '', 'placeholder-not-a-secret']));
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

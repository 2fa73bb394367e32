/**
 * Golden cases: whole plans, from manifests as a user writes them to the three
 * renderings, through the real manifest loader and planner (cases.ts).
 *
 * One folder per case, `test/golden/<case>/`:
 *
 * - `manifests/*.yaml`: the manifests, loaded with `loadManifests` (they must load
 *   without any diagnostic; `test/manifest/corpus/` is the place for diagnostics);
 * - `gwops.yaml` (optional): the project file, for the ownership scope;
 * - `options.json` (optional): `prune`, `allowMassDelete` (the flags), `env` (values of
 *   `${VAR}` and `{ fromEnv }` secrets) and `validatorMessages` (shown in `plan.md`);
 * - `jwks.json` (optional): the JWK Sets that `{ fromJwks }` values read, by URL (no
 *   network in golden cases);
 * - `live.json`: the gateway's answer to `GET /configuration/{collection}` per
 *   collection (`{ "mappings": { "data": [...] }, ... }`), full JSON:API resources; the
 *   ownership filters the planner sends are applied to them as the gateway would;
 * - `plan.txt`, `plan.md`, `plan.json`: the expected `renderText` (no colour),
 *   `renderMarkdown` (with the Mermaid picture of `planTopology`) and `renderJson` of the plan;
 * - `graph.mmd`, `graph.dot`: the expected `gwops graph` of the manifests (`renderMermaid`
 *   and `renderDot` of `stateTopology` of the desired state).
 *
 * To add a case, create the folder without the `plan.*` files and run the test: it
 * writes them and fails once, so that you read them before checking them in. After an
 * intended change of the planner or the renderers, regenerate every golden with
 *
 *     UPDATE_GOLDEN=1 npx vitest run test/golden
 *
 * and review the diff before committing it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResourceType } from '../../src/kinds/index.js';
import { planTopology, renderDot, renderJson, renderJsonChunks, renderMarkdown, renderMermaid, renderText, stateTopology } from '../../src/render/index.js';
import { secretAttributes } from '../../src/schema/index.js';
import { mermaidBlock, parseFlowchart } from '../render/mermaid-syntax.js';
import type { GoldenCase } from './cases.js';
import { caseNames, golden, loadCase } from './cases.js';


const names = caseNames();

/** Every string at a secret path (`x-gwops-secret`) of an attribute tree. */
function secretsAt(type: ResourceType, attributes: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const p of secretAttributes(type)) {
    let current: unknown = attributes;
    for (const s of p.segments) current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[s] : undefined;
    if (typeof current === 'string') found.push(current);
  }
  return found;
}

/** The secret values of a case: those the loader registers for redaction and those at the schemas' secret paths. */
function secretsOf(c: GoldenCase): string[] {
  return [...new Set([...c.loaded.secretValues, ...c.loaded.documents.flatMap((d) => secretsAt(d.kind, d.attributes))])];
}

describe.each(names)('golden case %s', (name) => {
  let c: GoldenCase;
  beforeAll(async () => {
    c = await loadCase(name);
  });

  const markdown = (): string =>
    renderMarkdown(c.plan, { validatorMessages: c.options.validatorMessages ?? [], topology: planTopology(c.plan, c.desired, c.live) });

  it('text', () => golden(new URL('plan.txt', c.dir), renderText(c.plan, { color: false })));
  it('markdown', () => golden(new URL('plan.md', c.dir), markdown()));
  it('json', () => golden(new URL('plan.json', c.dir), renderJson(c.plan)));
  it('json round-trips to the plan', () => expect(JSON.parse(renderJson(c.plan))).toEqual(c.plan));
  it('json streamed in chunks is the same text', () => expect([...renderJsonChunks(c.plan)].join('')).toBe(renderJson(c.plan)));
  it('graph as mermaid', () => golden(new URL('graph.mmd', c.dir), renderMermaid(stateTopology(c.desired), { maxNodes: Infinity })));
  it('graph as dot', () => golden(new URL('graph.dot', c.dir), renderDot(stateTopology(c.desired))));
  it('pictures parse as flowcharts and name every object', () => {
    const graph = parseFlowchart(renderMermaid(stateTopology(c.desired), { maxNodes: Infinity }));
    const names = [...c.desired.objects.values()].flatMap((objects) => [...objects.keys()]);
    expect([...graph.nodes.values()].map((n) => n.label.split('<br/>')[1]).sort()).toEqual([...names].sort());
    const block = mermaidBlock(markdown());
    if (c.plan.steps.length > 0) expect(parseFlowchart(block ?? '').nodes.size).toBeGreaterThan(0);
    else expect(block).toBeUndefined();
  });

  it('shows no secret value of the manifests in any rendering', () => {
    const outputs = [renderText(c.plan, { color: false }), renderText(c.plan, { color: true }), markdown(), renderJson(c.plan), JSON.stringify(c.plan)];
    for (const out of outputs) for (const secret of secretsOf(c)) expect(out).not.toContain(secret);
  });
});

describe('golden cases', () => {
  it('exist, and one of them holds secrets (or the leak check above proves nothing)', async () => {
    const cases = await Promise.all(names.map(loadCase));
    expect(cases.length).toBeGreaterThan(0);
    expect(Math.max(...cases.map((c) => secretsOf(c).length))).toBeGreaterThanOrEqual(3);
  });
});

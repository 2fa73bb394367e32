/**
 * An attribute that names an object (schema `x-gwops-reference`) with a name neither the
 * manifests nor the gateway have is a located error at that name: for every kind and every
 * such attribute in the registry.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { KINDS } from '../../src/kinds/index.js';
import { referenceAttributes } from '../../src/schema/index.js';
import { loadManifests } from '../../src/manifest/index.js';
import { desiredState } from '../../src/engine/desired.js';
import { unresolvedReferences } from '../../src/engine/attribute-references.js';
import { emptyObjectMaps } from '../../src/engine/model.js';
import { project } from './fixture.js';

/** Attributes holding `value` at `segments` (`*`: an array of one item). */
function nest(segments: readonly string[], value: unknown): unknown {
  const [head, ...rest] = segments;
  if (head === undefined) return value;
  return head === '*' ? [nest(rest, value)] : { [head]: nest(rest, value) };
}

const cases = KINDS.flatMap((kind) => referenceAttributes(kind.type).map((path) => ({ kind: kind.type, path })));

describe('attribute references to unknown names', () => {
  it('the registry has attributes that name objects', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [`${c.kind} ${c.path.path}`, c] as const))('%s: located at the unknown name', async (_label, { kind, path }) => {
    const unknown = 'nowhere-declared';
    const many = path.schema.type === 'array';
    const attributes = nest(path.segments, many ? ['first-unknown', unknown] : unknown);
    const text = `# a comment line first\n${stringify({ apiVersion: 'gwops/v1', kind, name: 'holder', attributes })}`;
    const dir = project({ 'gwops.yaml': 'manifests: [m.yaml]\n', 'm.yaml': text });
    const loaded = await loadManifests({ paths: [], cwd: dir, env: {} });
    const desired = desiredState(loaded.documents);
    const found = unresolvedReferences(desired, { objects: emptyObjectMaps(), links: [] });
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes(unknown));
    const diagnostic = found.find((d) => d.message.includes(`'${unknown}'`));
    expect(diagnostic).toMatchObject({ code: 'unresolved-link', line: line + 1, column: (lines[line] ?? '').indexOf(unknown) + 1 });
    expect(diagnostic?.file).toMatch(/m\.yaml$/);
  });
});

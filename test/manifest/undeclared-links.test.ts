/**
 * Every link to a name no manifest declares is said once, at the name as written: a warning
 * that it will have to exist on the gateway when the project sets `allowExternalLinks`,
 * an error otherwise; a declared name is never said. Property over every relationship of
 * every kind of the registry (src/kinds/index.ts), to-one and to-many, and over generated
 * names (declared ones, typos of declared ones, others), through `gwops validate --format
 * json` in-process.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS, relationshipsIn } from '../../src/kinds/index.js';
import type { RelationshipDefinition, ResourceType } from '../../src/kinds/index.js';
import { suggestion } from '../../src/manifest/schema-check.js';
import { runCli } from '../support/in-process-cli.js';

/** Every relationship of the latest variant (the default), with the kind that has it. */
const LINKS: readonly { readonly kind: ResourceType; readonly relationship: RelationshipDefinition }[] = KINDS.flatMap((kind) =>
  relationshipsIn(kind, 'latest').map((relationship) => ({ kind: kind.type, relationship })),
);

const SOURCE = 'the-source';

/** Visible characters and spaces (what a name may hold), YAML indicators included; no `$`, which starts a variable. */
const nameChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-._ :#"\'[]{},&*!|>%@`ÄéЖ中');
const plainName = fc.string({ unit: nameChar, minLength: 1, maxLength: 12 }).filter((n) => n.trim().length > 0);
/** A name one edit away from `name`: a character dropped, doubled or replaced. */
const typoOf = (name: string): fc.Arbitrary<string> =>
  fc.tuple(fc.nat(name.length - 1), fc.constantFrom('drop', 'double', 'replace'), nameChar).map(([i, edit, ch]) => {
    const c = name[i] ?? '';
    const replaced = edit === 'drop' ? '' : edit === 'double' ? c + c : ch;
    return name.slice(0, i) + replaced + name.slice(i + 1);
  });

interface Case {
  readonly kind: ResourceType;
  readonly relationship: RelationshipDefinition;
  readonly declared: readonly string[];
  readonly names: readonly string[];
  readonly allow: boolean;
}

const cases: fc.Arbitrary<Case> = fc
  .record({
    link: fc.constantFrom(...LINKS),
    declared: fc.uniqueArray(plainName, { maxLength: 3 }),
    allow: fc.boolean(),
  })
  .chain(({ link, declared, allow }) => {
    const pick = declared.length > 0 ? fc.oneof(plainName, fc.constantFrom(...declared), fc.constantFrom(...declared).chain(typoOf)) : plainName;
    const names = fc
      .uniqueArray(pick, { minLength: 1, maxLength: link.relationship.cardinality === 'one' ? 1 : 5 })
      .map((list) => list.filter((n) => n.trim().length > 0 && n !== SOURCE));
    return names.filter((list) => list.length > 0).map((list) => ({ ...link, declared, names: list, allow }));
  });

/** The source document, and where each of its link names is written (line and column, 1-based). */
function sourceDocument(c: Case): { text: string; at: string[] } {
  const rel = c.relationship.name;
  const head = `apiVersion: gwops/v1\nkind: ${c.kind}\nname: ${SOURCE}\nrelationships:\n`;
  if (c.relationship.cardinality === 'one') return { text: `${head}  ${rel}: ${JSON.stringify(c.names[0])}\n`, at: [`5:${rel.length + 5}`] };
  return { text: `${head}  ${rel}:\n${c.names.map((n) => `    - ${JSON.stringify(n)}\n`).join('')}`, at: c.names.map((_n, i) => `${6 + i}:7`) };
}

interface JsonDiagnostic {
  readonly severity: string;
  readonly code: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

describe('links to undeclared names (property)', () => {
  it('each undeclared name gets exactly one diagnostic at its line and column: a warning with allowExternalLinks, else an error', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gwops-undeclared-links-'));
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const source = sourceDocument(c);
        writeFileSync(path.join(dir, 'source.yaml'), source.text);
        const targets = c.declared.map((n) => `apiVersion: gwops/v1\nkind: ${c.relationship.target}\nname: ${JSON.stringify(n)}\n`);
        writeFileSync(path.join(dir, 'targets.yaml'), targets.join('---\n'));
        writeFileSync(path.join(dir, 'gwops.yaml'), `manifests: [source.yaml, targets.yaml]\nallowExternalLinks: ${String(c.allow)}\n`);

        const r = await runCli(['validate', '--format', 'json'], {}, dir);
        const report = JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] };
        const links = report.diagnostics.filter((d) => d.code === 'unresolved-link');
        const undeclared = c.names.map((name, i) => ({ name, at: `source.yaml:${source.at[i] ?? ''}` })).filter((u) => !c.declared.includes(u.name));
        expect(links.map((d) => `${d.file ?? ''}:${d.line ?? 0}:${d.column ?? 0}`)).toEqual(undeclared.map((u) => u.at));
        undeclared.forEach((u, i) => {
          const d = links[i];
          const said = `${c.kind} '${SOURCE}' links to ${c.relationship.target} '${u.name}' (relationship '${c.relationship.name}')`;
          const hint = suggestion(u.name, [...c.declared]);
          expect(d?.severity).toBe(c.allow ? 'warning' : 'error');
          expect(d?.message).toBe(
            c.allow ? `${said}, which is declared in no manifest and will have to exist on the gateway (allowExternalLinks)${hint}` : `${said}, which no manifest defines${hint}`,
          );
        });
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

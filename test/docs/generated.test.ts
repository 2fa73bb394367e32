/**
 * The generated pages of `docs/` (tools/docs/generate.ts): the committed files are the
 * generators' output byte for byte; the manifest reference follows the schemas and the kind
 * registry, the CLI reference the commands the program itself registers.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import type { KindDefinition, ResourceType } from '../../src/kinds/index.js';
import { SCHEMA_KINDS, documentSchema, walkAttributes } from '../../src/schema/index.js';
import type { JsonSchema } from '../../src/schema/index.js';
import { cliReference, commandNames, helpDescription, programHelp } from '../../tools/docs/cli-reference.js';
import {
  CLI_REFERENCE_FILE,
  DOCS_FOLDER,
  MANIFEST_REFERENCE_FILE,
  currentCliReference,
  currentManifestReference,
} from '../../tools/docs/generate.js';
import type { GeneratedDoc } from '../../tools/docs/generate.js';
import { attributeEntries, manifestReference, typeText, valuesText } from '../../tools/docs/manifest-reference.js';
import { headingAnchors } from '../../tools/docs/markdown.js';
import { stalenessProblem } from '../../src/core/generated-files.js';

function expectCommitted(file: GeneratedDoc): void {
  const problem = stalenessProblem(DOCS_FOLDER, file, 'the generator or the schemas');
  expect(problem === undefined, problem).toBe(true);
}

/** The section of `kind` in the manifest reference (from its heading to the next `## `). */
function section(text: string, kind: string): string {
  const start = text.indexOf(`\n## ${kind}\n`);
  expect(start, `section ${kind}`).toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

describe('docs/manifest-reference.md', () => {
  const reference = currentManifestReference();

  it('is the generator\'s output', () => {
    expectCommitted(reference);
  });

  it('has a section per document kind of the registry, in the order of SCHEMA_KINDS', () => {
    const headings = [...reference.text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual([...SCHEMA_KINDS]);
  });

  it('lists every attribute path of every resource kind, with its secret and write-only marks', () => {
    for (const kind of KINDS) {
      const text = section(reference.text, kind.type);
      for (const attribute of walkAttributes(kind.type)) {
        const line = text.split('\n').find((l) => l.startsWith(`| \`${attribute.path}\` |`));
        expect(line, `${kind.type} ${attribute.path}`).toBeDefined();
        if (attribute.schema['x-gwops-secret'] === true) expect(line, `${kind.type} ${attribute.path}`).toMatch(/\| secret(, write-only)? \|/);
        if (attribute.schema.writeOnly === true) expect(line, `${kind.type} ${attribute.path}`).toContain('write-only');
        const variants = attribute.schema['x-gwops-variants'];
        if (Array.isArray(variants)) for (const v of variants) expect(line, `${kind.type} ${attribute.path}`).toContain(v);
      }
    }
  });

  it('lists every relationship of the registry with its target, cardinality and canonical side', () => {
    expect(KINDS.flatMap((kind) => Object.values(kind.relationships)).length).toBeGreaterThan(0);
    for (const kind of KINDS) {
      const text = section(reference.text, kind.type);
      for (const r of Object.values(kind.relationships)) {
        const line = text.split('\n').find((l) => l.startsWith(`| \`${r.name}\` |`));
        expect(line, `${kind.type} ${r.name}`).toContain(`[\`${r.target}\`](#${r.target})`);
        expect(line, `${kind.type} ${r.name}`).toContain(`| ${r.cardinality} |`);
        if (r.canonical) expect(line).toContain('| this side |');
        else expect(line).toContain(`\`${r.inverse}\``);
      }
    }
  });

  it('links only to headings of its own page', () => {
    const anchors = headingAnchors(reference.text);
    const links = [...reference.text.matchAll(/\]\(#([^)]+)\)/g)].map(([, anchor]) => anchor);
    // At least the link of every relationship to its target's section.
    expect(links.length).toBeGreaterThanOrEqual(KINDS.flatMap((kind) => Object.values(kind.relationships)).length);
    expect(KINDS.some((kind) => Object.keys(kind.relationships).length > 0)).toBe(true);
    expect(links.filter((anchor) => anchor === undefined || !anchors.has(anchor))).toEqual([]);
  });

  it('follows the registry: a made-up kind and its template get sections, the same text twice', () => {
    const base = KINDS.find((k) => !k.singleton);
    if (!base) throw new Error('the registry is empty');
    const schemas: Record<string, JsonSchema> = {
      'new-kind': {
        description: 'A made-up kind',
        properties: { apiVersion: { const: 'gwops/v1' }, name: { type: 'string' }, attributes: { $ref: '#/$defs/attributes' } },
        $defs: {
          attributes: {
            properties: {
              size: { type: 'integer', minimum: 1, maximum: 9, default: 3, description: 'How | big' },
              token: { 'x-gwops-secret': true, writeOnly: true, anyOf: [{ type: 'string' }, { $ref: '#/$defs/source' }] },
              hosts: { type: 'array', 'x-gwops-variants': ['latest'], items: { type: 'object', properties: { mode: { enum: ['A', 'B'] } } } },
            },
          },
          source: { oneOf: [{ type: 'object', properties: { fromEnv: { type: 'string' } } }, { type: 'object', properties: { fromFile: { type: 'string' } } }] },
        },
      },
      'new-kind-template': { properties: { attributes: { $ref: '#/$defs/attributes' } }, $defs: { attributes: { $ref: 'new-kind.schema.json#/$defs/attributes' } } },
    };
    const extra: KindDefinition = { ...base, type: 'new-kind' as ResourceType, collection: 'new-kinds', template: 'new-kind-template', relationships: {} };
    const schemaOf = (kind: string): JsonSchema => schemas[kind] ?? documentSchema(kind);
    const text = manifestReference([...KINDS, extra], schemaOf);
    expect(text).toBe(manifestReference([...KINDS, extra], schemaOf));
    const own = section(text, 'new-kind');
    expect(own).toContain('`/configuration/new-kinds`');
    expect(own).toContain('| `size` | integer | default `3`; min 1; max 9 |  |  | How \\| big |');
    expect(own).toContain('| `token` | string or `{ fromEnv }` or `{ fromFile }` |  |  | secret, write-only |');
    expect(own).toContain('| `hosts[].mode` | enum | one of `A`, `B` | latest |');
    expect(section(text, 'new-kind-template')).toContain('The same as those of [`new-kind`](#new-kind-attributes).');
  });

  it('describes types and limits from the schema keywords', () => {
    const root: JsonSchema = { $defs: { p: { type: 'object', properties: { pattern: { type: 'string' } } } } };
    expect(typeText({ type: 'array', items: { $ref: '#/$defs/p' } }, root)).toBe('array of object');
    expect(typeText({ type: ['string', 'null'] }, root)).toBe('string or null');
    expect(valuesText({ type: 'array', items: { enum: ['GET', 'POST'] }, uniqueItems: true }, root)).toBe('each one of `GET`, `POST`; unique items');
    expect(attributeEntries({ properties: { a: { $ref: '#/$defs/p' } } }, root).map((e) => e.path)).toEqual(['a', 'a.pattern']);
  });
});

describe('docs/cli-reference.md', () => {
  it('is the generator\'s output', async () => {
    expectCommitted(await currentCliReference());
  });

  it('has a section for the program and for every command the program lists, none by hand', async () => {
    const listed = commandNames(await programHelp([]));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed).not.toContain('help');
    const text = await cliReference();
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['gwops', ...listed.map((c) => `gwops ${c}`)]);
    for (const command of listed) expect(text).toContain(`Usage: gwops ${command}`);
  });

  it('takes a command added to the program, and subcommands, from the help alone', async () => {
    const helps: Record<string, string> = {
      '': 'Usage: gwops [options] [command]\n\nThe program\n\nOptions:\n  -h, --help  help\n\nCommands:\n  one [options]  The first\n                 command\n  two|t          The second\n  help [command]  display help\n',
      one: 'Usage: gwops one [options]\n\nThe first\ncommand\n\nOptions:\n  -h, --help  help\n\nExit codes:\n  0    done\n  1    an error\n',
      two: 'Usage: gwops two [command]\n\nThe second\n\nCommands:\n  deep  Below\n',
      'two deep': 'Usage: gwops two deep\n\nOptions:\n  -h, --help  help\n',
    };
    const read = (path: readonly string[]): Promise<string> => Promise.resolve(helps[path.join(' ')] ?? '');
    const text = await cliReference(read);
    expect([...text.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual(['gwops', 'gwops one', 'gwops two', 'gwops two deep']);
    expect(text).toContain('| [`gwops one`](#gwops-one) | The first command | 0, 1 |');
    expect(text).toContain('| [`gwops two deep`](#gwops-two-deep) |  |  |');
    expect(helpDescription(helps['two deep'] ?? '')).toBe('');
  });

  it('names the files the generator writes', () => {
    expect([MANIFEST_REFERENCE_FILE, CLI_REFERENCE_FILE]).toEqual(['manifest-reference.md', 'cli-reference.md']);
  });
});

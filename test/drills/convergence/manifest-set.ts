/**
 * Random manifest sets for the convergence drill: for every kind of a variant, 0-2 objects
 * whose attributes come from the kind's JSON Schema (schema-arbitrary.ts), links between
 * them declared on either side, and for kinds with a template kind (`extends`) an optional
 * template some objects extend. Names start with `cv-`, inside the drill's ownership scope.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { ResourceType, Variant } from '../../../src/kinds/index.js';
import { KINDS, kindExistsIn, kindOf, relationshipsIn } from '../../../src/kinds/index.js';
import { referenceAttributes } from '../../../src/schema/index.js';
import type { Json } from './schema-arbitrary.js';
import { MAX_PER_KIND, attributesArbitrary, objectName } from './schema-arbitrary.js';

export { objectName } from './schema-arbitrary.js';

/** A certificate and its key, for kinds whose identity is a PEM certificate; optionally the key encrypted with a passphrase. */
export interface Pem {
  readonly cert: string;
  readonly key: string;
  readonly encrypted?: { readonly key: string; readonly passphrase: string };
}

/** One generated object. */
export interface GenObject {
  readonly kind: ResourceType;
  readonly name: string;
  readonly attributes: { [key: string]: Json };
  /** By relationship name, the target names this document declares (possibly none: the key declared empty). */
  readonly relationships: Record<string, string[]>;
  readonly extends?: string;
}

/** One generated template document. */
export interface GenTemplate {
  readonly kind: string;
  readonly name: string;
  readonly attributes: { [key: string]: Json };
}

/** A manifest set and the environment its secret references read. */
export interface ManifestSet {
  readonly objects: readonly GenObject[];
  readonly templates: readonly GenTemplate[];
  readonly env: Readonly<Record<string, string>>;
}

/** Attributes that hold a PEM (a certificate's identity, chain and root), filled from the pool; `privateKey` reads the pool key. */
const PEM_ATTRIBUTES = new Set(['certificate', 'certificateChain[]', 'rootCaCertificate']);
/** Write-only secrets that must fit the key: set below with the key they belong to, never generated. */
const NEVER = ['passphrase'];

/**
 * `attributes` of an object of `kind` with every reference (schema mark `x-gwops-reference`)
 * to an object that `declared(target, name)` denies removed: left out of a list of names; a
 * single name becomes the mark's "none" number, or is left out when the mark has none.
 */
export function resolveReferences(kind: ResourceType, attributes: { [key: string]: Json }, declared: (target: string, name: string) => boolean): { [key: string]: Json } {
  const out = structuredClone(attributes);
  for (const { segments, schema } of referenceAttributes(kind)) {
    const target = String(schema['x-gwops-reference']);
    const none = schema['x-gwops-reference-none'];
    const visit = (node: Json, rest: readonly string[]): void => {
      const [head, ...tail] = rest;
      if (head === undefined || node === null || typeof node !== 'object') return;
      if (head === '*') {
        if (Array.isArray(node)) for (const item of node) visit(item, tail);
        return;
      }
      if (Array.isArray(node) || !Object.hasOwn(node, head)) return;
      const value = node[head];
      if (tail.length > 0) return visit(value ?? null, tail);
      if (Array.isArray(value)) node[head] = value.filter((v) => typeof v !== 'string' || declared(target, v));
      else if (typeof value === 'string' && !declared(target, value)) {
        if (typeof none === 'number') node[head] = none;
        else delete node[head];
      }
    };
    visit(out, segments);
  }
  return out;
}

const secretValue = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('')), minLength: 12, maxLength: 20 });

/**
 * Sets of the kinds that exist in `variant`. `pems` gives certificates distinct identities
 * (each needs a PEM of its own; at most `pems.length` per set).
 */
export function manifestSetArbitrary(variant: Variant, pems: readonly Pem[]): fc.Arbitrary<ManifestSet> {
  const kinds = KINDS.filter((k) => kindExistsIn(k, variant));
  const perKind = kinds.map((kind) => {
    const pemKind = !kind.identity.byName;
    const skip = ['name', ...kind.identity.attributes, ...(pemKind ? NEVER : [])];
    const one = (i: number): fc.Arbitrary<{ attributes: { [key: string]: Json }; pem: number; secrets: Record<string, string> }> =>
      fc
        .record({
          attributes: attributesArbitrary(kind.type, variant, { skip, secretVariable: (path) => `CV_${kind.type.replace(/-/g, '_').toUpperCase()}_${i}_${path.replace(/\W/g, '_').toUpperCase()}` }),
          pem: fc.integer({ min: 0, max: Math.max(0, pems.length - 1) }),
          secret: secretValue,
          encrypt: fc.boolean(),
        })
        .map(({ attributes, pem, secret, encrypt }) => {
          const secrets: Record<string, string> = {};
          const fill = (value: Json, path: string): Json => {
            if (Array.isArray(value)) return value.map((v) => fill(v, `${path}[]`));
            if (typeof value === 'object' && value !== null) {
              if (typeof value.fromEnv === 'string') {
                if (pemKind && path === 'privateKey') secrets[value.fromEnv] = pems[pem]?.key ?? '';
                else secrets[value.fromEnv] = secret;
                return value;
              }
              return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, path === '' ? k : `${path}.${k}`)]));
            }
            if (pemKind && typeof value === 'string' && PEM_ATTRIBUTES.has(path)) return pems[(pem + 1) % pems.length]?.cert ?? value;
            return value;
          };
          const filled = fill(attributes, '') as { [key: string]: Json };
          if (pemKind) {
            filled.certificate = pems[pem]?.cert ?? '';
            if (!('privateKey' in filled)) {
              const variable = `CV_KEY_${i}`;
              filled.privateKey = { fromEnv: variable };
              secrets[variable] = pems[pem]?.key ?? '';
            }
            // Sometimes the key encrypted, with its passphrase.
            const encrypted = pems[pem]?.encrypted;
            const keyVariable = filled.privateKey !== null && typeof filled.privateKey === 'object' && !Array.isArray(filled.privateKey) ? filled.privateKey.fromEnv : undefined;
            if (encrypt && encrypted && typeof keyVariable === 'string') {
              secrets[keyVariable] = encrypted.key;
              filled.passphrase = { fromEnv: `CV_PASSPHRASE_${i}` };
              secrets[`CV_PASSPHRASE_${i}`] = encrypted.passphrase;
            }
          }
          return { attributes: filled, pem, secrets };
        });
    const max = pemKind ? Math.min(MAX_PER_KIND, pems.length) : MAX_PER_KIND;
    return fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: max }).chain((count) => fc.tuple(...count.map((_, i) => one(i)))).map((objs) => {
      // distinct PEMs within a kind whose identity is the PEM
      const seen = new Set<number>();
      return objs
        .filter((o) => !pemKind || (!seen.has(o.pem) && (seen.add(o.pem), true)))
        .map((o, i) => ({ kind: kind.type, name: objectName(kind.type, i), ...o }));
    });
  });
  const templateKindsHere = kinds.filter((k) => k.template !== undefined);
  const templates = fc.tuple(
    ...templateKindsHere.map((kind) =>
      fc.option(attributesArbitrary(kind.type, variant, { skip: ['name'], secretVariable: () => 'CV_TEMPLATE_SECRET', maxDepth: 3 }), { nil: undefined }).map((attributes) =>
        attributes === undefined ? [] : [{ kind: kind.template ?? '', of: kind.type, name: `cv-template-${kind.type}`, attributes }],
      ),
    ),
  );
  return fc
    .tuple(fc.tuple(...perKind), templates, fc.infiniteStream(fc.nat()), secretValue)
    .map(([byKind, templateLists, random, templateSecret]) => {
      const objects = byKind.flat();
      const next = (): number => {
        const item: IteratorResult<number> = random.next();
        return item.done === true ? 0 : item.value;
      };
      const env: Record<string, string> = { CV_TEMPLATE_SECRET: templateSecret };
      for (const o of objects) Object.assign(env, o.secrets);
      const rels = new Map<string, Record<string, string[]>>(objects.map((o) => [`${o.kind}/${o.name}`, {}]));
      const declare = (kind: ResourceType, name: string, relationship: string, target: string | undefined): void => {
        const r = rels.get(`${kind}/${name}`);
        if (!r) return;
        r[relationship] ??= [];
        if (target !== undefined) r[relationship].push(target);
      };
      for (const o of objects) {
        for (const rel of relationshipsIn(kindOf(o.kind), variant)) {
          if (!rel.canonical) continue;
          const targets = objects.filter((t) => t.kind === rel.target);
          const inverse = kindOf(rel.target).relationships[rel.inverse];
          if (next() % 3 === 0) continue; // relationship left undeclared
          const chosen = targets.filter(() => next() % 2 === 0).slice(0, rel.cardinality === 'one' ? 1 : undefined);
          const fromInverse = inverse !== undefined && inverse.cardinality === 'many' && next() % 2 === 0;
          if (fromInverse) for (const t of chosen) declare(t.kind, t.name, rel.inverse, o.name);
          else if (chosen.length > 0 || next() % 2 === 0) {
            declare(o.kind, o.name, rel.name, undefined);
            for (const t of chosen) declare(o.kind, o.name, rel.name, t.name);
          }
        }
      }
      const tpl = templateLists.flat();
      const declared = (target: string, name: string): boolean => objects.some((o) => o.kind === target && o.name === name);
      const out: GenObject[] = objects.map((o) => {
        const template = tpl.find((t) => t.of === o.kind);
        return {
          kind: o.kind,
          name: o.name,
          attributes: resolveReferences(o.kind, o.attributes, declared),
          relationships: rels.get(`${o.kind}/${o.name}`) ?? {},
          ...(template && next() % 2 === 0 ? { extends: template.name } : {}),
        };
      });
      return { objects: out, templates: tpl.map((t) => ({ kind: t.kind, name: t.name, attributes: resolveReferences(t.of, t.attributes, declared) })), env };
    });
}

/** The set as one multi-document manifest file. */
export function manifestText(set: ManifestSet): string {
  const docs: string[] = [];
  for (const t of set.templates) docs.push(stringify({ apiVersion: 'gwops/v1', kind: t.kind, name: t.name, attributes: t.attributes }, { lineWidth: 0 }));
  for (const o of set.objects) {
    const doc: Record<string, unknown> = { apiVersion: 'gwops/v1', kind: o.kind, name: o.name };
    if (o.extends !== undefined) doc.extends = o.extends;
    doc.attributes = o.attributes;
    const rels: Record<string, string | string[]> = {};
    for (const [name, targets] of Object.entries(o.relationships)) {
      const def = kindOf(o.kind).relationships[name];
      if (def?.cardinality === 'one') {
        if (targets[0] !== undefined) rels[name] = targets[0];
      } else rels[name] = [...new Set(targets)];
    }
    if (Object.keys(rels).length > 0) doc.relationships = rels;
    docs.push(stringify(doc, { lineWidth: 0 }));
  }
  return docs.join('---\n');
}

/**
 * The set as fast-check prints a counterexample: the manifest file as YAML and the names of
 * the environment variables, never their values (private keys and secrets of the drill).
 */
export function readable(set: ManifestSet): ManifestSet {
  const text = `ManifestSet(env: ${Object.keys(set.env).sort().join(', ') || 'none'})\n---\n${manifestText(set)}`;
  return Object.assign({}, set, { [fc.toStringMethod]: () => text });
}

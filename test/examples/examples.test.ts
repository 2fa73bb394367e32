/**
 * Checks `examples/`: every YAML document parses, every
 * manifest document is valid against its kind's schema (and the editor schema), the
 * example is as large as promised, every relationship names a defined object, and the
 * rules the gateway's validator enforces hold in the latest variant, also after the
 * staging overlay is applied.
 *
 * Finally the resolved documents (templates merged, overlays applied) are created on the
 * emulator through the raw REST API: its validator must report nothing, activation must
 * succeed, every declared attribute must read back unchanged, and the project's ownership
 * filters must select exactly the declared objects.
 *
 * Independent of `src/manifest`, `src/engine` and `src/operations` on purpose: it reads the examples with
 * nothing but `yaml`, ajv, the schemas and plain HTTP, so a bug in the loader or the
 * reconciler cannot hide a broken example.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { matchesFilter as matchesApiFilter, parseFilters } from '../../src/api/filter.js';
import { startEmulator } from '../../src/emulator/index.js';
import { KINDS, isResourceType, isTemplateKind, kindOf } from '../../src/kinds/index.js';
import { SCHEMA_KINDS, wireSchema } from '../../src/schema/index.js';
import type { ResourceType } from '../../src/kinds/index.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLES = join(ROOT, 'examples');
const SCHEMAS = join(ROOT, 'schemas');
const EDITOR_SCHEMA = join(SCHEMAS, 'manifest.schema.json');
const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)$/;

/** A JSON value as text: strings as they are, anything else as JSON (never `[object Object]`). */
function text(value: Json | undefined): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function walkFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...walkFiles(full));
    else out.push(full);
  }
  return out;
}

const rel = (file: string): string => relative(ROOT, file).split(sep).join('/');

/** One parsed YAML document with the file it came from. */
interface Doc {
  readonly file: string;
  readonly index: number;
  readonly value: JsonObject;
}

function parseFile(file: string): Doc[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { uniqueKeys: true });
  if (!Array.isArray(docs)) throw new Error(`${rel(file)}: not a YAML stream`);
  return docs.map((doc, index) => {
    const problems = [...doc.errors, ...doc.warnings].map((e) => e.message);
    if (problems.length > 0) throw new Error(`${rel(file)} document ${index + 1}: ${problems.join('; ')}`);
    const value: unknown = doc.toJS();
    if (!isObject(value)) throw new Error(`${rel(file)} document ${index + 1}: not a mapping`);
    return { file, index, value };
  });
}

const yamlFiles = walkFiles(EXAMPLES).filter((f) => /\.ya?ml$/.test(f));
const manifestFiles = yamlFiles.filter((f) => rel(f).startsWith('examples/manifests/'));
const overlayFiles = yamlFiles.filter((f) => rel(f).startsWith('examples/overlays/'));
const manifestDocs = manifestFiles.flatMap(parseFile);
const overlayDocs = overlayFiles.flatMap(parseFile);

const str = (doc: Doc, key: string): string => {
  const v = doc.value[key];
  if (typeof v !== 'string') throw new Error(`${rel(doc.file)} document ${doc.index + 1}: '${key}' is not a string`);
  return v;
};
const where = (doc: Doc): string => `${rel(doc.file)} document ${doc.index + 1} (${text(doc.value.name)})`;
const attrs = (doc: { value: JsonObject }): JsonObject => (isObject(doc.value.attributes) ? doc.value.attributes : {});
const ofKind = (kind: string): Doc[] => manifestDocs.filter((d) => d.value.kind === kind);

/** Objects merge recursively, everything else (lists included) replaces: the `extends` rule. */
function deepMerge(base: JsonObject, over: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isObject(b) && isObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/** RFC 7386 JSON merge patch. */
function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
  }
  return out;
}

/** Replaces `{fromEnv}` / `{fromFile}` secret sources by a placeholder string, as the loader resolves them. */
function resolveSecrets(value: Json): Json {
  if (Array.isArray(value)) return value.map(resolveSecrets);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && (keys[0] === 'fromEnv' || keys[0] === 'fromFile')) return 'resolved-secret';
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveSecrets(v)]));
}

const ajv = new Ajv2020.default({ strict: false, allErrors: true });
for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json')).sort()) {
  ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as object);
}
function validateDocument(doc: { value: JsonObject }, kind: string): string[] {
  const validate = ajv.getSchema(`https://gwops.dev/schemas/${kind}.schema.json`);
  if (!validate) return [`no schema for kind '${kind}'`];
  if (validate(doc.value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

const latestWire = new Map<ResourceType, ReturnType<typeof ajv.compile>>();
/** Errors of the attributes as they would be sent to a `latest` gateway (other variants' attributes are unknown there). */
function wireErrors(kind: ResourceType, attributes: JsonObject): string[] {
  let validate = latestWire.get(kind);
  if (!validate) {
    validate = ajv.compile(wireSchema(kind, 'latest', { keepRanges: true }));
    latestWire.set(kind, validate);
  }
  if (validate(resolveSecrets(attributes))) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** The base documents with overlay documents applied (what a target with these overlays sees). */
function applyOverlays(base: readonly Doc[], overlays: readonly Doc[]): Doc[] {
  const out = base.map((d) => ({ ...d, value: structuredClone(d.value) }));
  for (const o of overlays) {
    const target = out.find((d) => d.value.kind === o.value.kind && d.value.name === o.value.name);
    if (!target) throw new Error(`${where(o)}: overlay names no base object`);
    const ops = o.value.patch;
    if (Array.isArray(ops)) {
      target.value = fastJsonPatch.applyPatch(target.value, ops as unknown as Operation[], true, false).newDocument;
    } else {
      const { apiVersion: _a, kind: _k, name: _n, ...patch } = o.value;
      const merged = mergePatch(target.value, patch);
      if (!isObject(merged)) throw new Error(`${where(o)}: merge patch did not give an object`);
      target.value = merged;
    }
  }
  return out;
}

/** Every link as `mapping -> virtual-host` / `mapping -> back-end-group` etc., declared from either side. */
interface Link {
  readonly fromKind: string;
  readonly from: string;
  readonly relationship: string;
  readonly toKind: string;
  readonly to: string;
  readonly declaredIn: string;
}
function links(docs: readonly Doc[]): Link[] {
  const out: Link[] = [];
  for (const d of docs) {
    const kind = KINDS.find((k) => k.type === d.value.kind);
    const rels = d.value.relationships;
    if (!kind || !isObject(rels)) continue;
    for (const [name, value] of Object.entries(rels)) {
      const def = kind.relationships[name];
      if (!def) throw new Error(`${where(d)}: unknown relationship '${name}'`);
      const targets = Array.isArray(value) ? value : [value];
      for (const t of targets) {
        out.push({ fromKind: kind.type, from: str(d, 'name'), relationship: name, toKind: def.target, to: text(t), declaredIn: where(d) });
      }
    }
  }
  return out;
}
/** Names of `toKind` objects linked with the `kind` object `name`, from either side. */
function linked(all: readonly Link[], kind: string, name: string, toKind: string): Set<string> {
  const out = new Set<string>();
  for (const l of all) {
    if (l.fromKind === kind && l.from === name && l.toKind === toKind) out.add(l.to);
    if (l.toKind === kind && l.to === name && l.fromKind === toKind) out.add(l.from);
  }
  return out;
}

/**
 * The gateway's rules (validator messages of severity ERROR, docs/gateway-api.md "Validator
 * messages") over a set of resolved documents.
 */
function gatewayErrors(docs: readonly Doc[]): string[] {
  const errors: string[] = [];
  const all = links(docs);
  const templates = new Map(docs.filter((d) => d.value.kind === 'mapping-template').map((d) => [d.value.name, attrs(d)]));
  const priorities = new Map<number, string>();
  for (const d of docs) {
    const kind = d.value.kind;
    const name = str(d, 'name');
    if (kind === 'mapping') {
      const ext = d.value.extends;
      const template = typeof ext === 'string' ? templates.get(ext) : undefined;
      if (!template) errors.push(`${where(d)}: extends no template`);
      const merged = deepMerge(template ?? {}, attrs(d));
      errors.push(...wireErrors('mapping', merged).map((e) => `${where(d)}: ${e}`));
      const entry = isObject(merged.entryPath) ? merged.entryPath : {};
      if (entry.regexFormatEnforced === true) {
        const prio = typeof entry.priority === 'number' ? entry.priority : 0;
        const other = priorities.get(prio);
        if (other) errors.push(`${where(d)}: regex priority ${prio} also used by ${other}`);
        priorities.set(prio, name);
        try {
          new RegExp(text(entry.value));
        } catch {
          errors.push(`${where(d)}: invalid regular expression ${text(entry.value)}`);
        }
      }
      if (linked(all, 'mapping', name, 'back-end-group').size !== 1) errors.push(`${where(d)}: not exactly one back-end group`);
      if (linked(all, 'mapping', name, 'virtual-host').size === 0) errors.push(`${where(d)}: no virtual host`);
    } else if (kind === 'virtual-host') {
      const a = attrs(d);
      errors.push(...wireErrors('virtual-host', a).map((e) => `${where(d)}: ${e}`));
      const ni = isObject(a.networkInterface) ? a.networkInterface : {};
      const https = isObject(ni.https) ? ni.https : {};
      if (https.http2Allowed === true && https.enabled !== true) errors.push(`${where(d)}: http2Allowed without HTTPS`);
      const tls = isObject(a.tls) ? a.tls : {};
      const certs = linked(all, 'virtual-host', name, 'ssl-certificate');
      if (tls.certificateMode === 'CERTIFICATE' && certs.size !== 1) errors.push(`${where(d)}: CERTIFICATE without one ssl-certificate`);
      if (https.enabled === true && certs.size === 0 && linked(all, 'virtual-host', name, 'acme-service').size === 0) {
        errors.push(`${where(d)}: HTTPS without certificate or ACME service`);
      }
    } else if (kind === 'back-end-group') {
      const a = attrs(d);
      errors.push(...wireErrors('back-end-group', a).map((e) => `${where(d)}: ${e}`));
      if (!Array.isArray(a.backendHosts) || a.backendHosts.length === 0) errors.push(`${where(d)}: no backend hosts`);
    } else if (kind === 'ssl-certificate') {
      errors.push(...wireErrors('ssl-certificate', attrs(d)).map((e) => `${where(d)}: ${e}`));
    }
  }
  return errors;
}

/**
 * Paths where `live` differs from what is declared: objects compare only their declared
 * keys, lists item by item and with the same length, everything else strictly (the
 * comparison of docs/architecture.md "Decisions", so that an apply followed by a plan shows no change).
 */
function declaredMismatches(declared: Json, live: Json | undefined, path = ''): string[] {
  if (isObject(declared)) {
    if (!isObject(live)) return [path || '/'];
    return Object.entries(declared).flatMap(([k, v]) => declaredMismatches(v, live[k], `${path}/${k}`));
  }
  if (Array.isArray(declared)) {
    if (!Array.isArray(live) || live.length !== declared.length) return [path];
    return declared.flatMap((v, i) => declaredMismatches(v, live[i], `${path}/${i}`));
  }
  return declared === live ? [] : [`${path}: ${JSON.stringify(declared)} != ${JSON.stringify(live)}`];
}

const COLLECTION: Readonly<Record<string, string>> = Object.fromEntries(KINDS.map((k) => [k.type, k.collection]));

/**
 * Creates the resolved documents on an emulator through the raw API (templates merged,
 * secrets replaced by a throwaway value), links them from the side each link is declared
 * on, and returns the validator messages and the activation status. Nothing of gwops'
 * own client or reconciler is used.
 */
async function applyToEmulator(
  docs: readonly Doc[],
  ownership: JsonObject = {},
): Promise<{ messages: { severity: string; detail: string }[]; activated: number; owned: Record<string, string[]>; mismatches: string[] }> {
  const emulator = await startEmulator({ port: 0, tls: false, variant: 'latest' });
  try {
    let cookie = '';
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: JsonObject }> => {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (cookie) headers.Cookie = cookie;
      else headers.Authorization = `Bearer ${emulator.apiKey}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(`${emulator.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const setCookie = res.headers.get('set-cookie');
      if (setCookie) cookie = setCookie.split(';', 1)[0] ?? '';
      const textBody = await res.text();
      const json: unknown = textBody ? JSON.parse(textBody) : {};
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${textBody}`);
      return { status: res.status, json: isObject(json) ? json : {} };
    };
    await call('POST', '/session/create');
    await call('POST', '/configuration/configurations/load-active');
    const templates = new Map(docs.filter((d) => isTemplateKind(d.value.kind)).map((d) => [`${text(d.value.kind)}/${text(d.value.name)}`, attrs(d)]));
    const ids = new Map<string, string>();
    const sent = new Map<string, JsonObject>();
    // The registry's order is the dependency order.
    for (const { type: kind, template, identity } of KINDS) {
      for (const d of docs.filter((x) => x.value.kind === kind)) {
        const name = str(d, 'name');
        let attributes = resolveSecrets(attrs(d)) as JsonObject;
        if (template !== undefined) attributes = deepMerge(templates.get(`${template}/${text(d.value.extends ?? '')}`) ?? {}, attributes);
        if (identity.byName) attributes = { ...attributes, name };
        const created = await call('POST', `/configuration/${COLLECTION[kind] ?? kind}`, { data: { type: kind, attributes } });
        const data = created.json.data;
        ids.set(`${kind}/${name}`, isObject(data) ? text(data.id) : '');
        sent.set(`${kind}/${name}`, attributes);
      }
    }
    for (const l of links(docs)) {
      const from = ids.get(`${l.fromKind}/${l.from}`);
      const to = ids.get(`${l.toKind}/${l.to}`);
      const def = KINDS.find((k) => k.type === l.fromKind)?.relationships[l.relationship];
      const identifier = { type: l.toKind, id: to };
      await call('PATCH', `/configuration/${COLLECTION[l.fromKind] ?? ''}/${from ?? ''}/relationships/${l.relationship}`, {
        data: def?.cardinality === 'one' ? identifier : [identifier],
      });
    }
    const listed = await call('GET', '/configuration/validator-messages');
    const messages = (Array.isArray(listed.json.data) ? listed.json.data : []).filter(isObject).map((m) => {
      const a = isObject(m.attributes) ? m.attributes : {};
      return { severity: isObject(m.meta) ? text(m.meta.severity) : '?', detail: text(a.detail) };
    });
    let activated = 0;
    if (!messages.some((m) => m.severity === 'ERROR')) {
      activated = (await call('POST', '/configuration/configurations/activate', { comment: 'examples check' })).status;
    }
    // What the project's ownership filters select on the live gateway (the GET gwops makes).
    const owned: Record<string, string[]> = {};
    for (const [kind, filters] of Object.entries(ownership)) {
      const query = (Array.isArray(filters) ? filters : [filters]).map((f) => `filter=${encodeURIComponent(text(f))}`).join('&');
      const list = await call('GET', `/configuration/${COLLECTION[kind] ?? kind}?${query}`);
      owned[kind] = (Array.isArray(list.json.data) ? list.json.data : [])
        .filter(isObject)
        .map((o) => (isObject(o.attributes) ? text(o.attributes.name) : ''))
        .sort();
    }
    // Read back: every declared attribute must come back as sent, or the next plan would not be empty.
    const mismatches: string[] = [];
    for (const [key, attributes] of sent) {
      const [kind = '', name = ''] = key.split('/');
      const got = await call('GET', `/configuration/${COLLECTION[kind] ?? kind}/${ids.get(key) ?? ''}`);
      const live = isObject(got.json.data) && isObject(got.json.data.attributes) ? got.json.data.attributes : {};
      const { privateKey: _secret, ...readable } = attributes;
      mismatches.push(...declaredMismatches(readable, live).map((path) => `${kind} ${name}: ${path}`));
    }
    await call('POST', '/session/terminate');
    return { messages, activated, owned, mismatches };
  } finally {
    await emulator.close();
  }
}

/** Reads a project file and the documents of its manifest paths. */
function project(file: string): JsonObject {
  const [doc, ...rest] = parseFile(file);
  if (!doc || rest.length > 0) throw new Error(`${rel(file)}: expected one document`);
  return doc.value;
}

/** An ownership filter (the API's syntax, evaluated by the emulator's own filter module) on a manifest document. */
function matchesFilter(filter: string, doc: Doc): boolean {
  const kind = text(doc.value.kind);
  const properties = isResourceType(kind) ? kindOf(kind).filterProperties : undefined;
  return matchesApiFilter(parseFilters([filter]), { type: kind, id: '', attributes: { ...attrs(doc), name: doc.value.name ?? null } }, properties);
}

describe('examples', () => {
  it('every YAML file in examples/ parses without errors or duplicate keys', () => {
    expect(yamlFiles.length).toBeGreaterThan(10);
    for (const file of yamlFiles) expect(() => parseFile(file), rel(file)).not.toThrow();
  });

  it('every manifest and overlay file starts with the editor schema line pointing at schemas/', () => {
    for (const file of [...manifestFiles, ...overlayFiles]) {
      const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
      const m = SCHEMA_LINE.exec(first);
      expect(m, `${rel(file)}: first line`).not.toBeNull();
      expect(resolve(dirname(file), m?.[1] ?? ''), rel(file)).toBe(EDITOR_SCHEMA);
    }
  });

  it('every manifest document is valid against its kind schema', () => {
    for (const doc of manifestDocs) {
      expect(validateDocument(doc, text(doc.value.kind)), where(doc)).toEqual([]);
    }
  });

  it('every manifest and overlay document is valid against the editor schema', () => {
    for (const doc of [...manifestDocs, ...overlayDocs]) expect(validateDocument(doc, 'manifest'), where(doc)).toEqual([]);
  });

  it('has the promised size', () => {
    expect(ofKind('virtual-host').length).toBeGreaterThanOrEqual(3);
    expect(ofKind('mapping').length).toBeGreaterThanOrEqual(25);
    expect(ofKind('mapping-template').length).toBe(2);
    expect(ofKind('back-end-group').length).toBeGreaterThanOrEqual(5);
    expect(ofKind('ssl-certificate').length).toBeGreaterThanOrEqual(2);
    const kinds = new Set(SCHEMA_KINDS);
    for (const doc of manifestDocs) expect(kinds.has(text(doc.value.kind)), where(doc)).toBe(true);
  });

  it('names are unique per kind', () => {
    const seen = new Set<string>();
    for (const doc of manifestDocs) {
      const key = `${text(doc.value.kind)}/${str(doc, 'name')}`;
      expect(seen.has(key), `duplicate ${key}`).toBe(false);
      seen.add(key);
    }
  });

  it('every relationship names a defined object of the right kind', () => {
    const defined = new Set(manifestDocs.map((d) => `${text(d.value.kind)}/${str(d, 'name')}`));
    const all = links(manifestDocs);
    expect(all.length).toBeGreaterThan(50);
    for (const l of all) expect(defined.has(`${l.toKind}/${l.to}`), `${l.declaredIn}: ${l.relationship} -> ${l.to}`).toBe(true);
  });

  it('every mapping extends a template, carries managed-by-gwops, one back-end group and a virtual host', () => {
    const templates = new Set(ofKind('mapping-template').map((d) => str(d, 'name')));
    const all = links(manifestDocs);
    const fromVirtualHost = all.filter((l) => l.fromKind === 'virtual-host' && l.toKind === 'mapping');
    const fromMapping = all.filter((l) => l.fromKind === 'mapping' && l.toKind === 'virtual-host');
    expect(fromVirtualHost.length, 'some links declared from the virtual host side').toBeGreaterThan(0);
    expect(fromMapping.length, 'some links declared from the mapping side').toBeGreaterThan(0);
    for (const m of ofKind('mapping')) {
      expect(templates.has(text(m.value.extends)), where(m)).toBe(true);
      const labels = attrs(m).labels;
      expect(Array.isArray(labels) && labels.includes('managed-by-gwops'), where(m)).toBe(true);
      expect(linked(all, 'mapping', str(m, 'name'), 'back-end-group').size, where(m)).toBe(1);
      expect(linked(all, 'mapping', str(m, 'name'), 'virtual-host').size, where(m)).toBeGreaterThan(0);
    }
    for (const t of templates) {
      expect(ofKind('mapping').some((m) => m.value.extends === t), `template ${t} is used`).toBe(true);
    }
  });

  it('every virtual host is HTTPS with a linked certificate', () => {
    const all = links(manifestDocs);
    for (const vh of ofKind('virtual-host')) {
      const a = attrs(vh);
      expect(a.networkInterface, where(vh)).toMatchObject({ https: { enabled: true } });
      expect(a.tls, where(vh)).toMatchObject({ certificateMode: 'CERTIFICATE' });
      expect(typeof a.hostName === 'string' && a.hostName.endsWith('.example.com'), where(vh)).toBe(true);
      expect(linked(all, 'virtual-host', str(vh, 'name'), 'ssl-certificate').size, where(vh)).toBe(1);
    }
  });

  it('certificates are real PEM certificates whose private keys come from GWOPS_EXAMPLE_* variables', () => {
    for (const c of ofKind('ssl-certificate')) {
      const a = attrs(c);
      expect(() => new X509Certificate(text(a.certificate)), where(c)).not.toThrow();
      expect(a.privateKey, where(c)).toEqual({ fromEnv: expect.stringMatching(/^GWOPS_EXAMPLE_\w+_TLS_KEY$/) as unknown });
    }
    for (const file of walkFiles(EXAMPLES)) {
      expect(readFileSync(file, 'utf8'), `${rel(file)} must not contain a private key`).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    }
  });

  it('regex mappings have distinct priorities in -999..999', () => {
    const prios = ofKind('mapping')
      .map((m) => attrs(m).entryPath)
      .filter((e): e is JsonObject => isObject(e) && e.regexFormatEnforced === true)
      .map((e) => e.priority);
    expect(prios.length).toBeGreaterThanOrEqual(3);
    for (const p of prios) expect(typeof p === 'number' && p >= -999 && p <= 999).toBe(true);
    expect(new Set(prios).size).toBe(prios.length);
  });

  it('the base configuration breaks none of the gateway validator rules, in the latest variant', () => {
    expect(gatewayErrors(manifestDocs)).toEqual([]);
  });

  it('gwops.yaml names existing paths, both targets and an ownership scope that covers every object', () => {
    const p = project(join(EXAMPLES, 'gwops.yaml'));
    expect(p.manifests).toEqual(['manifests']);
    expect(p.allowExternalLinks).toBe(false);
    const targets = p.targets;
    if (!isObject(targets)) throw new Error('targets is not a mapping');
    expect(Object.keys(targets).sort()).toEqual(['production', 'staging']);
    expect(targets.production).toMatchObject({ url: 'https://gateway.example.com/airlock/rest', apiKeyEnv: 'GWOPS_API_KEY', variant: 'latest' });
    expect(targets.staging).toMatchObject({
      url: 'https://gateway-staging.example.com/airlock/rest',
      apiKeyEnv: 'GWOPS_API_KEY',
      variant: 'latest',
      overlays: ['overlays/staging'],
    });
    for (const dir of ['manifests', 'overlays/staging']) expect(existsSync(join(EXAMPLES, dir)), dir).toBe(true);
    const ownership = p.ownership;
    if (!isObject(ownership)) throw new Error('ownership is not a mapping');
    for (const [kind, filters] of Object.entries(ownership)) {
      expect(KINDS.some((k) => k.type === kind), kind).toBe(true);
      if (!Array.isArray(filters)) throw new Error(`ownership.${kind} is not a list`);
      for (const doc of ofKind(kind)) {
        // Every filter must match (several GET filters combine with AND).
        for (const f of filters) expect(matchesFilter(text(f), doc), `${where(doc)} is outside ${text(f)}`).toBe(true);
      }
    }
    for (const kind of ['mapping', 'virtual-host', 'back-end-group']) expect(Object.keys(ownership)).toContain(kind);
  });

  it('both project files are valid against schemas/project.schema.json and carry its editor line', () => {
    for (const file of [join(EXAMPLES, 'gwops.yaml'), join(EXAMPLES, 'demo', 'gwops.yaml')]) {
      expect(validateDocument({ value: project(file) }, 'project'), rel(file)).toEqual([]);
      const m = SCHEMA_LINE.exec(readFileSync(file, 'utf8').split('\n', 1)[0] ?? '');
      expect(resolve(dirname(file), m?.[1] ?? ''), rel(file)).toBe(join(SCHEMAS, 'project.schema.json'));
    }
  });

  it('demo/gwops.yaml is the same project with one demo target and no overlays', () => {
    const base = project(join(EXAMPLES, 'gwops.yaml'));
    const demo = project(join(EXAMPLES, 'demo', 'gwops.yaml'));
    expect(demo.manifests).toEqual(['../manifests']);
    expect(existsSync(join(EXAMPLES, 'demo', '../manifests'))).toBe(true);
    expect(demo.targets).toEqual({
      demo: {
        url: 'https://127.0.0.1:8443/airlock/rest',
        apiKeyFile: '../../.gwops/emulator-api-key',
        caFile: '../../.gwops/emulator-cert.pem',
        variant: 'latest',
      },
    });
    // The emulator's default certificate file, so the demo target verifies TLS.
    expect(resolve(EXAMPLES, 'demo', '../../.gwops/emulator-cert.pem')).toBe(join(ROOT, '.gwops', 'emulator-cert.pem'));
    expect(resolve(EXAMPLES, 'demo', '../../.gwops/emulator-api-key')).toBe(join(ROOT, '.gwops', 'emulator-api-key'));
    expect(demo.ownership).toEqual(base.ownership);
    expect(demo.allowExternalLinks).toBe(false);
  });

  it('staging overlays patch existing objects and leave a configuration without validator errors', () => {
    expect(overlayDocs.length).toBeGreaterThanOrEqual(4);
    expect(overlayDocs.some((o) => Array.isArray(o.value.patch)), 'one overlay uses RFC 6902 ops').toBe(true);
    for (const o of overlayDocs) {
      expect(manifestDocs.some((d) => d.value.kind === o.value.kind && d.value.name === o.value.name), where(o)).toBe(true);
      // Merge-patch overlays are partial documents of their kind; JSON Patch ones are ops lists.
      if (!Array.isArray(o.value.patch)) expect(validateDocument(o, text(o.value.kind)), where(o)).toEqual([]);
    }
    const staged = applyOverlays(manifestDocs, overlayDocs);
    expect(gatewayErrors(staged)).toEqual([]);
    for (const vh of staged.filter((d) => d.value.kind === 'virtual-host')) {
      expect(text(attrs(vh).hostName), where(vh)).toMatch(/-staging\.example\.com$/);
    }
    const hosts = staged
      .filter((d) => d.value.kind === 'back-end-group')
      .flatMap((d) => (Array.isArray(attrs(d).backendHosts) ? (attrs(d).backendHosts as Json[]) : []))
      .map((h) => (isObject(h) ? text(h.hostName) : ''));
    expect(hosts.every((h) => h.includes('.stg.')), `staging back-end hosts: ${hosts.join(', ')}`).toBe(true);
  });

  it('the CI recipes run the documented commands with the secrets in the right variables', () => {
    const ci = (name: string): string => readFileSync(join(EXAMPLES, 'ci', name), 'utf8');
    const plan = ci('plan-on-pull-request.yml');
    // The recipes run gwops through the action (action.yml); test/ci/workflows.test.ts checks them in depth.
    expect(plan).toMatch(/command: plan\n\s+args: --target production\n/);
    expect(plan).toContain('<!-- gwops-plan target=production -->');
    expect(ci('apply-on-merge.yml')).toMatch(/command: apply\n\s+args: --target production --yes\n/);
    expect(ci('nightly-drift.yml')).toMatch(/command: drift\n\s+args: --target production\n/);
    for (const name of ['plan-on-pull-request.yml', 'apply-on-merge.yml', 'apply-to-targets.yml', 'nightly-drift.yml']) {
      const recipe = ci(name);
      expect(recipe, name).toMatch(/GWOPS_API_KEY: \$\{\{ secrets\.\w+ \}\}/);
      for (const c of ofKind('ssl-certificate')) {
        const env = (attrs(c).privateKey as JsonObject).fromEnv;
        expect(recipe, `${name} sets ${text(env)}`).toMatch(new RegExp(`${text(env)}: \\$\\{\\{ secrets\\.\\w+ \\}\\}`));
      }
    }
  });

  it('applied to the emulator (latest variant), the base configuration activates with no validator message at all', async () => {
    const ownership = project(join(EXAMPLES, 'gwops.yaml')).ownership;
    const { messages, activated, owned, mismatches } = await applyToEmulator(manifestDocs, isObject(ownership) ? ownership : {});
    expect(messages).toEqual([]);
    expect(activated).toBe(200);
    expect(mismatches).toEqual([]);
    // The ownership filters, as the gateway evaluates them, select exactly the declared objects.
    for (const kind of ['mapping', 'virtual-host', 'back-end-group']) {
      expect(owned[kind], kind).toEqual(ofKind(kind).map((d) => str(d, 'name')).sort());
    }
  });

  it('applied to the emulator, the staging configuration activates with no validator message at all', async () => {
    const { messages, activated, mismatches } = await applyToEmulator(applyOverlays(manifestDocs, overlayDocs));
    expect(messages).toEqual([]);
    expect(mismatches).toEqual([]);
    expect(activated).toBe(200);
  });
});

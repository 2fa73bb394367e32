/**
 * What the examples test reads and checks with: the example files parsed, the schemas, the
 * overlays applied, the links, the gateway rules and the apply to an emulator.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { parseAllDocuments } from 'yaml';
import { matchesFilter as matchesApiFilter, parseFilters } from '../../src/api/filter.js';
import { startEmulator } from '../../src/emulator/index.js';
import { KINDS, isResourceType, isTemplateKind, kindOf } from '../../src/kinds/index.js';
import { wireSchema } from '../../src/schema/index.js';
import { mapReferences } from '../../src/schema/references.js';
import type { ResourceType } from '../../src/kinds/index.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const EXAMPLES = join(ROOT, 'examples');
export const SCHEMAS = join(ROOT, 'schemas');
export const EDITOR_SCHEMA = join(SCHEMAS, 'manifest.schema.json');
export const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)$/;

/** A JSON value as text: strings as they are, anything else as JSON (never `[object Object]`). */
export function text(value: Json | undefined): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function walkFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...walkFiles(full));
    else out.push(full);
  }
  return out;
}

export const rel = (file: string): string => relative(ROOT, file).split(sep).join('/');

/** One parsed YAML document with the file it came from. */
export interface Doc {
  readonly file: string;
  readonly index: number;
  readonly value: JsonObject;
}

export function parseFile(file: string): Doc[] {
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

/** YAML files that a document names as its content (`content: { fromFile }`): specifications, not manifests. */
const contentFiles = new Set(
  walkFiles(EXAMPLES)
    .filter((f) => /\.ya?ml$/.test(f))
    .flatMap(parseFile)
    .flatMap((doc) => (isObject(doc.value.content) && typeof doc.value.content.fromFile === 'string' ? [resolve(dirname(doc.file), doc.value.content.fromFile)] : [])),
);
export const yamlFiles = walkFiles(EXAMPLES).filter((f) => /\.ya?ml$/.test(f) && !contentFiles.has(f));
export const manifestFiles = yamlFiles.filter((f) => rel(f).startsWith('examples/manifests/'));
export const overlayFiles = yamlFiles.filter((f) => rel(f).startsWith('examples/overlays/'));
export const manifestDocs = manifestFiles.flatMap(parseFile);
export const overlayDocs = overlayFiles.flatMap(parseFile);

export const str = (doc: Doc, key: string): string => {
  const v = doc.value[key];
  if (typeof v !== 'string') throw new Error(`${rel(doc.file)} document ${doc.index + 1}: '${key}' is not a string`);
  return v;
};
export const where = (doc: Doc): string => `${rel(doc.file)} document ${doc.index + 1} (${text(doc.value.name)})`;
export const attrs = (doc: { value: JsonObject }): JsonObject => (isObject(doc.value.attributes) ? doc.value.attributes : {});
export const ofKind = (kind: string): Doc[] => manifestDocs.filter((d) => d.value.kind === kind);

/** Objects merge recursively, everything else (lists included) replaces: the `extends` rule. */
export function deepMerge(base: JsonObject, over: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isObject(b) && isObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
  }
  return out;
}

/** Replaces `{fromEnv}` / `{fromFile}` secret sources by a placeholder string, as the loader resolves them. */
export function resolveSecrets(value: Json): Json {
  if (Array.isArray(value)) return value.map(resolveSecrets);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && (keys[0] === 'fromEnv' || keys[0] === 'fromFile')) return 'resolved-secret';
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveSecrets(v)]));
}

export const ajv = new Ajv2020.default({ strict: false, allErrors: true });
for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json')).sort()) {
  ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as object);
}
export function validateDocument(doc: { value: JsonObject }, kind: string): string[] {
  const validate = ajv.getSchema(`https://gwops.dev/schemas/${kind}.schema.json`);
  if (!validate) return [`no schema for kind '${kind}'`];
  if (validate(doc.value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

export const latestWire = new Map<ResourceType, ReturnType<typeof ajv.compile>>();
/** Errors of the attributes as they would be sent to a `latest` gateway (other variants' attributes are unknown there). */
export function wireErrors(kind: ResourceType, attributes: JsonObject): string[] {
  let validate = latestWire.get(kind);
  if (!validate) {
    validate = ajv.compile(wireSchema(kind, 'latest', { keepRanges: true }));
    latestWire.set(kind, validate);
  }
  // Manifests name referenced objects; on the wire they are ids (src/schema/references.ts).
  if (validate(mapReferences(kind, resolveSecrets(attributes) as JsonObject, () => 1))) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** The base documents with overlay documents applied (what a target with these overlays sees). */
export function applyOverlays(base: readonly Doc[], overlays: readonly Doc[]): Doc[] {
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
export interface Link {
  readonly fromKind: string;
  readonly from: string;
  readonly relationship: string;
  readonly toKind: string;
  readonly to: string;
  readonly declaredIn: string;
}
export function links(docs: readonly Doc[]): Link[] {
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
export function linked(all: readonly Link[], kind: string, name: string, toKind: string): Set<string> {
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
export function gatewayErrors(docs: readonly Doc[]): string[] {
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
export function declaredMismatches(declared: Json, live: Json | undefined, path = ''): string[] {
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

export const COLLECTION: Readonly<Record<string, string>> = Object.fromEntries(KINDS.map((k) => [k.type, k.collection]));

/**
 * Creates the resolved documents on an emulator through the raw API (templates merged,
 * secrets replaced by a throwaway value), links them from the side each link is declared
 * on, and returns the validator messages and the activation status. Nothing of gwops'
 * own client or reconciler is used.
 */
export async function applyToEmulator(
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
        // Referenced objects by the ids they got here (the registry's order creates them first).
        attributes = mapReferences(kind, attributes, (target, value) => Number(ids.get(`${target}/${String(value)}`)));
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
export function project(file: string): JsonObject {
  const [doc, ...rest] = parseFile(file);
  if (!doc || rest.length > 0) throw new Error(`${rel(file)}: expected one document`);
  return doc.value;
}

/** An ownership filter (the API's syntax, evaluated by the emulator's own filter module) on a manifest document. */
export function matchesFilter(filter: string, doc: Doc): boolean {
  const kind = text(doc.value.kind);
  const properties = isResourceType(kind) ? kindOf(kind).filterProperties : undefined;
  return matchesApiFilter(parseFilters([filter]), { type: kind, id: '', attributes: { ...attrs(doc), name: doc.value.name ?? null } }, properties);
}

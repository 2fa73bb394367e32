/**
 * Mapping templates and source mappings (docs/gateway-api.md "Mapping templates"): the
 * built-in template `New_Mapping` (negative id, read-only),
 * `POST /configuration/mappings/create-from-template`,
 * `PATCH /configuration/mappings/{id}/relationships/template` and
 * `POST /configuration/mappings/{id}/pull-from-source-mapping`.
 *
 * The source mapping of a mapping is kept where the API keeps it: in the mapping's
 * `mappingTemplateName` attribute (docs/gateway-api.md "Mapping templates").
 */
import type { Variant } from '../kinds/index.js';
import type { ConfigContent, JsonObject, StoredObject } from './model.js';
import { newObjectAttributes, readableAttributes } from './pure.js';
import type { Reply } from './responses.js';
import { dataReply, emptyReply, errors } from './responses.js';
import { resourceObject } from './routes-resources.js';
import type { Call, Route } from './routing.js';
import { isJsonObject, param, refuseBuiltIn, requestData, show, workingCopy } from './routing.js';

/** A built-in mapping template. */
export interface MappingTemplate {
  readonly id: string;
  readonly name: string;
  /** Full mapping attributes a mapping created from it starts with. */
  readonly attributes: JsonObject;
}

/** Name and id of the template that always exists (docs/gateway-api.md "Mapping templates"). */
export const NEW_MAPPING_TEMPLATE = { id: '-1000', name: 'New_Mapping' } as const;

/** The built-in templates of a variant. */
export function builtInTemplates(variant: Variant): MappingTemplate[] {
  return [
    { ...NEW_MAPPING_TEMPLATE, attributes: newObjectAttributes('mapping', variant, { name: NEW_MAPPING_TEMPLATE.name }) },
    {
      id: '-1001',
      name: 'REST_API',
      attributes: newObjectAttributes('mapping', variant, { name: 'REST_API', backendPath: '/api/', entryPath: { value: '/api/' } }),
    },
  ];
}

const templatesByVariant = new Map<Variant, MappingTemplate[]>();

function templates(variant: Variant): MappingTemplate[] {
  let found = templatesByVariant.get(variant);
  if (!found) {
    found = builtInTemplates(variant);
    templatesByVariant.set(variant, found);
  }
  return found;
}

function templateObject(t: MappingTemplate): unknown {
  return { type: 'mapping-template', id: t.id, attributes: readableAttributes('mapping', t.attributes) };
}

function listTemplates(call: Call): Reply {
  workingCopy(call);
  return dataReply(templates(call.core.variant).map(templateObject));
}

function readTemplate(call: Call): Reply {
  const id = param(call, 'id');
  const t = templates(call.core.variant).find((x) => x.id === id);
  if (!t) throw errors.notFound(`mapping-template ${id}`);
  return dataReply(templateObject(t));
}

function modifyTemplate(call: Call): Reply {
  const id = param(call, 'id');
  if (!templates(call.core.variant).some((x) => x.id === id)) throw errors.notFound(`mapping-template ${id}`);
  throw errors.defaultEntity(`mapping-template ${id}`, call.core.variant);
}

/** A mapping name not yet used in `content`: `base`, else `base_2`, `base_3`, ... */
function unusedName(content: ConfigContent, base: string): string {
  const used = new Set<string>();
  for (const m of content.objects.mapping.values()) if (typeof m.attributes.name === 'string') used.add(m.attributes.name);
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

function createFromTemplate(call: Call): Reply {
  const content = workingCopy(call);
  const data = requestData(call.json());
  if (!isJsonObject(data)) throw errors.invalidFormat("'data' must be an object");
  if (data.type !== undefined && data.type !== 'create-mapping-from-template') {
    throw errors.invalidFormat("'data.type' must be 'create-mapping-from-template'");
  }
  const templateId = isJsonObject(data.attributes) ? data.attributes.id : undefined;
  if (typeof templateId !== 'string' && typeof templateId !== 'number') throw errors.invalidFormat("'data.attributes.id' names the template");
  const t = templates(call.core.variant).find((x) => x.id === String(templateId));
  if (!t) throw errors.notFound(`mapping-template ${String(templateId)}`);
  const id = String(content.nextId++);
  const obj: StoredObject = { type: 'mapping', id, attributes: { ...t.attributes, name: unusedName(content, t.name) }, relationships: {} };
  content.objects.mapping.set(id, obj);
  return dataReply(resourceObject(obj, call.core.variant), 201);
}

/** The mapping addressed by the path. @throws ApiError 404 / 409 (built-in). */
function targetMapping(call: Call, content: ConfigContent): StoredObject {
  const id = param(call, 'id');
  refuseBuiltIn(call, 'mapping', id);
  const obj = content.objects.mapping.get(id);
  if (!obj) throw errors.notFound(`mapping ${id}`);
  return obj;
}

function setSource(call: Call): Reply {
  const content = workingCopy(call);
  const target = targetMapping(call, content);
  const data = requestData(call.json());
  let name = '';
  if (data !== null) {
    const ident = Array.isArray(data) ? data[0] : data;
    if (!isJsonObject(ident) || (typeof ident.id !== 'string' && typeof ident.id !== 'number')) {
      throw errors.invalidFormat('a resource identifier must be an object {type, id}');
    }
    if (ident.type !== undefined && ident.type !== 'mapping' && ident.type !== 'mapping-template') {
      throw errors.invalidValue(`the source of a mapping is a mapping, not ${show(ident.type)}`);
    }
    const sourceId = String(ident.id);
    const source = content.objects.mapping.get(sourceId) ?? templates(call.core.variant).find((x) => x.id === sourceId);
    if (!source) throw errors.notFound(`mapping ${sourceId}`);
    name = typeof source.attributes.name === 'string' ? source.attributes.name : '';
  }
  content.objects.mapping.set(target.id, { ...target, attributes: { ...target.attributes, mappingTemplateName: name } });
  return emptyReply();
}

/** Attributes a pull never copies: the mapping's identity and where it is served. */
const NOT_PULLED = new Set(['name', 'mappingTemplateName', 'entryPath']);

function pullFromSource(call: Call): Reply {
  const content = workingCopy(call);
  const target = targetMapping(call, content);
  const sourceName = target.attributes.mappingTemplateName;
  if (typeof sourceName !== 'string' || sourceName === '') throw errors.notFound(`source mapping of mapping ${target.id}`);
  const source =
    [...content.objects.mapping.values()].find((m) => m.id !== target.id && m.attributes.name === sourceName) ??
    templates(call.core.variant).find((t) => t.name === sourceName);
  if (!source) throw errors.notFound(`source mapping '${sourceName}'`);
  const attributes: JsonObject = { ...target.attributes };
  for (const [key, value] of Object.entries(source.attributes)) if (!NOT_PULLED.has(key)) attributes[key] = value;
  content.objects.mapping.set(target.id, { ...target, attributes });
  return emptyReply();
}

const TEMPLATES = ['configuration', 'templates', 'mappings'] as const;

/** The template routes (placed before the generic resource routes). */
export const templateRoutes: readonly Route[] = [
  { method: 'GET', pattern: TEMPLATES, modifying: false, needsLoad: true, handle: listTemplates },
  { method: 'GET', pattern: [...TEMPLATES, ':id'], modifying: false, needsLoad: true, handle: readTemplate },
  { method: 'PATCH', pattern: [...TEMPLATES, ':id'], modifying: true, needsLoad: true, handle: modifyTemplate },
  { method: 'DELETE', pattern: [...TEMPLATES, ':id'], modifying: true, needsLoad: true, handle: modifyTemplate },
  { method: 'POST', pattern: ['configuration', 'mappings', 'create-from-template'], modifying: true, needsLoad: true, handle: createFromTemplate },
  { method: 'PATCH', pattern: ['configuration', 'mappings', ':id', 'relationships', 'template'], modifying: true, needsLoad: true, handle: setSource },
  { method: 'POST', pattern: ['configuration', 'mappings', ':id', 'pull-from-source-mapping'], modifying: true, needsLoad: true, handle: pullFromSource },
];

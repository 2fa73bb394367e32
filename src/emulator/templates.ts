/**
 * Templates and source objects (docs/gateway-api.md "Mapping templates"), for every kind
 * whose `KindDefinition.template` names its template type and whose emulator hooks hold
 * `templates` (mappings): the built-in templates (negative ids, read-only) under
 * `/configuration/templates/{collection}`, `POST /configuration/{collection}/create-from-template`,
 * `PATCH /configuration/{collection}/{id}/relationships/template` and
 * `POST /configuration/{collection}/{id}/pull-from-source-mapping`.
 *
 * The source of an object is kept where the API keeps it: in the attribute the hooks name
 * (`sourceAttribute`, a mapping's `mappingTemplateName`; docs/gateway-api.md "Mapping
 * templates").
 */
import { KINDS } from '../kinds/index.js';
import type { KindDefinition, Variant } from '../kinds/index.js';
import type { TemplateHooks } from '../kinds/emulator-hooks.js';
import type { Key } from '../core/object-key.js';
import { joinKey } from '../core/object-key.js';
import type { ConfigContent, JsonObject, StoredObject } from './model.js';
import { newObjectAttributes, readableAttributes } from './pure.js';
import type { Reply } from './responses.js';
import { dataReply, emptyReply, errors } from './responses.js';
import { resourceObject } from './routes-resources.js';
import type { Call, Route } from './routing.js';
import { isJsonObject, param, refuseBuiltIn, requestData, show, workingCopy } from './routing.js';

/** A built-in template. */
export interface Template {
  readonly id: string;
  readonly name: string;
  /** Full attributes an object created from it starts with. */
  readonly attributes: JsonObject;
}

/** A kind with templates: its definition, its template type and its hooks. */
interface TemplateKind {
  readonly kind: KindDefinition;
  /** The resource type of its templates, e.g. `mapping-template`. */
  readonly type: string;
  readonly hooks: TemplateHooks;
}

/** The built-in templates of a kind in a variant. */
export function builtInTemplates(kind: KindDefinition, variant: Variant): Template[] {
  return (kind.emulator.templates?.builtIn ?? []).map((t) => ({
    id: t.id,
    name: t.name,
    attributes: newObjectAttributes(kind.type, variant, t.given),
  }));
}

const templatesByKind = new Map<Key<'built-in templates'>, Template[]>();

function templates(t: TemplateKind, variant: Variant): Template[] {
  const key = joinKey<'built-in templates'>(t.kind.type, variant);
  let found = templatesByKind.get(key);
  if (!found) {
    found = builtInTemplates(t.kind, variant);
    templatesByKind.set(key, found);
  }
  return found;
}

function templateObject(t: TemplateKind, template: Template): unknown {
  return { type: t.type, id: template.id, attributes: readableAttributes(t.kind.type, template.attributes) };
}

/** The name of an object or template, when it has one. */
function nameOf(obj: { readonly attributes: Readonly<JsonObject> }): string | undefined {
  return typeof obj.attributes.name === 'string' ? obj.attributes.name : undefined;
}

/** The routes of one kind with templates. */
function routesOf(t: TemplateKind): Route[] {
  const { kind, hooks } = t;

  function listTemplates(call: Call): Reply {
    workingCopy(call);
    return dataReply(templates(t, call.core.variant).map((x) => templateObject(t, x)));
  }

  function readTemplate(call: Call): Reply {
    const id = param(call, 'id');
    const found = templates(t, call.core.variant).find((x) => x.id === id);
    if (!found) throw errors.notFound(`${t.type} ${id}`);
    return dataReply(templateObject(t, found));
  }

  function modifyTemplate(call: Call): Reply {
    const id = param(call, 'id');
    if (!templates(t, call.core.variant).some((x) => x.id === id)) throw errors.notFound(`${t.type} ${id}`);
    throw errors.defaultEntity(`${t.type} ${id}`, call.core.variant);
  }

  /** A name not yet used by an object of the kind in `content`: `base`, else `base_2`, `base_3`, ... */
  function unusedName(content: ConfigContent, base: string): string {
    const used = new Set<string>();
    for (const o of content.objects[kind.type].values()) {
      const name = nameOf(o);
      if (name !== undefined) used.add(name);
    }
    if (!used.has(base)) return base;
    for (let i = 2; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
  }

  function createFromTemplate(call: Call): Reply {
    const content = workingCopy(call);
    const data = requestData(call.json());
    if (!isJsonObject(data)) throw errors.invalidFormat("'data' must be an object");
    const createType = `create-${kind.type}-from-template`;
    // Clients name the template either as `data.attributes.id` with the create type, or as
    // `data.id`, typed as the template (docs/gateway-api.md "Mapping templates").
    if (data.type !== undefined && data.type !== createType && data.type !== t.type) {
      throw errors.invalidFormat(`'data.type' must be '${createType}'`);
    }
    const templateId = isJsonObject(data.attributes) && data.attributes.id !== undefined ? data.attributes.id : data.id;
    if (typeof templateId !== 'string' && typeof templateId !== 'number') throw errors.invalidFormat("'data.attributes.id' (or 'data.id') names the template");
    const found = templates(t, call.core.variant).find((x) => x.id === String(templateId));
    if (!found) throw errors.notFound(`${t.type} ${String(templateId)}`);
    const id = String(content.nextId++);
    // The template is the new object's source, so a pull from it works at once (docs/gateway-api.md "Mapping templates").
    const attributes = { ...found.attributes, name: unusedName(content, found.name), [hooks.sourceAttribute]: found.name };
    const obj: StoredObject = { type: kind.type, id, attributes, relationships: {} };
    content.objects[kind.type].set(id, obj);
    return dataReply(resourceObject(obj, call.core.variant), 201);
  }

  /** The object addressed by the path. @throws EmulatorApiError 404 / 409 (built-in). */
  function target(call: Call, content: ConfigContent): StoredObject {
    const id = param(call, 'id');
    refuseBuiltIn(call, kind.type, id);
    const obj = content.objects[kind.type].get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    return obj;
  }

  function setSource(call: Call): Reply {
    const content = workingCopy(call);
    const obj = target(call, content);
    const data = requestData(call.json());
    let name = '';
    if (data !== null) {
      const ident = Array.isArray(data) ? data[0] : data;
      if (!isJsonObject(ident) || (typeof ident.id !== 'string' && typeof ident.id !== 'number')) {
        throw errors.invalidFormat('a resource identifier must be an object {type, id}');
      }
      if (ident.type !== undefined && ident.type !== kind.type && ident.type !== t.type) {
        throw errors.invalidValue(`the source of a ${kind.emulator.label} is a ${kind.emulator.label}, not ${show(ident.type)}`);
      }
      const sourceId = String(ident.id);
      const source = content.objects[kind.type].get(sourceId) ?? templates(t, call.core.variant).find((x) => x.id === sourceId);
      if (!source) throw errors.notFound(`${kind.type} ${sourceId}`);
      name = nameOf(source) ?? '';
    }
    content.objects[kind.type].set(obj.id, { ...obj, attributes: { ...obj.attributes, [hooks.sourceAttribute]: name } });
    return emptyReply();
  }

  const notPulled = new Set(hooks.notPulled);

  function pullFromSource(call: Call): Reply {
    const content = workingCopy(call);
    const obj = target(call, content);
    const sourceName = obj.attributes[hooks.sourceAttribute];
    if (typeof sourceName !== 'string' || sourceName === '') throw errors.notFound(`source ${kind.type} of ${kind.type} ${obj.id}`);
    const source =
      [...content.objects[kind.type].values()].find((o) => o.id !== obj.id && o.attributes.name === sourceName) ??
      templates(t, call.core.variant).find((x) => x.name === sourceName);
    if (!source) throw errors.notFound(`source ${kind.type} '${sourceName}'`);
    const attributes: JsonObject = { ...obj.attributes };
    for (const [key, value] of Object.entries(source.attributes)) if (!notPulled.has(key)) attributes[key] = value;
    const pulled: StoredObject = { ...obj, attributes };
    content.objects[kind.type].set(obj.id, pulled);
    // 200 with the object as it now is (the vendor's library expects 200; docs/gateway-api.md "Mapping templates").
    return dataReply(resourceObject(pulled, call.core.variant));
  }

  const list = ['configuration', 'templates', kind.collection];
  const item = ['configuration', kind.collection, ':id'];
  return [
    { method: 'GET', pattern: list, modifying: false, needsLoad: true, handle: listTemplates },
    { method: 'GET', pattern: [...list, ':id'], modifying: false, needsLoad: true, handle: readTemplate },
    { method: 'PATCH', pattern: [...list, ':id'], modifying: true, needsLoad: true, handle: modifyTemplate },
    { method: 'DELETE', pattern: [...list, ':id'], modifying: true, needsLoad: true, handle: modifyTemplate },
    { method: 'POST', pattern: ['configuration', kind.collection, 'create-from-template'], modifying: true, needsLoad: true, handle: createFromTemplate },
    { method: 'PATCH', pattern: [...item, 'relationships', 'template'], modifying: true, needsLoad: true, handle: setSource },
    { method: 'POST', pattern: [...item, `pull-from-source-${kind.type}`], modifying: true, needsLoad: true, handle: pullFromSource },
  ];
}

/** The kinds with templates: `template` set in the registry and `templates` in their hooks. */
const TEMPLATE_KINDS: readonly TemplateKind[] = KINDS.flatMap((kind) =>
  kind.template !== undefined && kind.emulator.templates !== undefined ? [{ kind, type: kind.template, hooks: kind.emulator.templates }] : [],
);

/** The template routes (placed before the generic resource routes). */
export const templateRoutes: readonly Route[] = TEMPLATE_KINDS.flatMap(routesOf);

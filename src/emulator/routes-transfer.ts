/**
 * Export and import (docs/gateway-api.md "Export and import"): a configuration as a
 * ZIP (`GET /configuration/configurations/export`, `.../{id}/export`,
 * `PUT /configuration/configurations/import`), and, for every kind whose emulator hooks
 * say `objectArchives` (mappings), its objects as a ZIP
 * (`GET /configuration/{collection}/{id}/export`, `PUT /configuration/{collection}/import`
 * replacing by name, `POST /configuration/{collection}/import` adding copies).
 *
 * The archives hold JSON written by the emulator (`configuration.json`,
 * `{collection}.json`); they round-trip through the emulator, not into a real gateway.
 */
import { KINDS } from '../kinds/index.js';
import type { KindDefinition, Variant } from '../kinds/index.js';
import { decodeContent, encodeContent } from './configurations.js';
import type { ConfigContent, JsonObject, StoredObject } from './model.js';
import { cloneContent } from './model.js';
import { checkAttributes, fillItemDefaults, newObjectAttributes, readableAttributes } from './pure.js';
import type { Reply } from './responses.js';
import { EmulatorApiError, dataReply, errors } from './responses.js';
import { resourceObject } from './routes-resources.js';
import type { Call, Route } from './routing.js';
import { isJsonMediaType } from './server.js';
import { loadWorkingCopy, param, refuseBuiltIn, workingCopy } from './routing.js';
import { ZipFormatError, readZip, writeZip } from './zip.js';

const CONFIGURATION_FILE = 'configuration.json';
const FORMAT_VERSION = 1;

function zipReply(name: string, entries: { name: string; data: Buffer }[]): Reply {
  return {
    status: 200,
    binary: { contentType: 'application/zip', data: writeZip(entries) },
    headers: { 'Content-Disposition': `attachment; filename="${name}"` },
  };
}

/** The uploaded ZIP's entries. @throws EmulatorApiError 415 for another media type, 400 for an unreadable archive. */
function uploadedZip(call: Call): Map<string, Buffer> {
  const type = call.contentType;
  const media = (type?.split(';')[0] ?? '').trim().toLowerCase();
  if (type !== undefined && media !== 'application/zip' && media !== 'application/octet-stream' && !isJsonMediaType(type)) {
    throw new EmulatorApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'upload the archive as application/zip');
  }
  try {
    return new Map(readZip(call.raw()).map((e) => [e.name, e.data]));
  } catch (error) {
    if (error instanceof ZipFormatError) throw errors.invalidFormat(`the upload is not a readable archive: ${error.message}`);
    throw error;
  }
}

function parseJsonEntry(entries: Map<string, Buffer>, name: string): unknown {
  const data = entries.get(name);
  if (!data) throw errors.invalidFormat(`the archive has no ${name}`);
  try {
    return JSON.parse(data.toString('utf8')) as unknown;
  } catch {
    throw errors.invalidFormat(`${name} in the archive is not JSON`);
  }
}

function configurationZip(content: ConfigContent, name: string): Reply {
  const json = JSON.stringify({ formatVersion: FORMAT_VERSION, ...encodeContent(content) });
  return zipReply(name, [{ name: CONFIGURATION_FILE, data: Buffer.from(json, 'utf8') }]);
}

function exportLoaded(call: Call): Reply {
  return configurationZip(workingCopy(call), 'configuration.zip');
}

function exportById(call: Call): Reply {
  const id = param(call, 'id');
  const entry = call.core.configurations.get(id);
  if (!entry) throw errors.notFound(`configuration ${id}`);
  return configurationZip(entry.content, `configuration-${id}.zip`);
}

/** Import loads the archive's configuration into the session, like a load. */
function importConfiguration(call: Call): Reply {
  const raw = parseJsonEntry(uploadedZip(call), CONFIGURATION_FILE);
  const content = decodeContent(raw, (why) => errors.invalidFormat(`${CONFIGURATION_FILE}: ${why}`));
  for (const map of Object.values(content.objects)) {
    for (const obj of map.values()) {
      const check = checkAttributes(obj.type, call.core.variant, readableAttributes(obj.type, obj.attributes));
      if (!check.ok) throw errors.invalidValue(`${obj.type} ${obj.id}: ${check.detail}`);
    }
  }
  loadWorkingCopy(call, content);
  return dataReply(null);
}

/** The archive file that holds objects of `kind`, e.g. `mappings.json`. */
function archiveFile(kind: KindDefinition): string {
  return `${kind.collection}.json`;
}

function exportObject(kind: KindDefinition): (call: Call) => Reply {
  return (call) => {
    const content = workingCopy(call);
    const id = param(call, 'id');
    const obj = content.objects[kind.type].get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    const json = JSON.stringify({ formatVersion: FORMAT_VERSION, [kind.collection]: [{ attributes: obj.attributes }] });
    return zipReply(`${kind.type}-${id}.zip`, [{ name: archiveFile(kind), data: Buffer.from(json, 'utf8') }]);
  };
}

/** The checked attribute objects of an uploaded archive of `kind`'s objects. */
function uploadedObjects(call: Call, kind: KindDefinition, variant: Variant): JsonObject[] {
  const file = archiveFile(kind);
  const raw = parseJsonEntry(uploadedZip(call), file);
  const list = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[kind.collection] : undefined;
  if (!Array.isArray(list)) throw errors.invalidFormat(`${file} has no ${kind.collection} list`);
  return list.map((item: unknown, i) => {
    const attributes = typeof item === 'object' && item !== null ? (item as { attributes?: unknown }).attributes : undefined;
    const check = checkAttributes(kind.type, variant, attributes);
    if (!check.ok) throw errors.invalidValue(`${kind.type} ${i + 1} of the archive: ${check.detail}`);
    return check.value;
  });
}

function nameOf(obj: { attributes: Readonly<JsonObject> }): string | undefined {
  return typeof obj.attributes.name === 'string' ? obj.attributes.name : undefined;
}

function importObjects(kind: KindDefinition, asCopy: boolean): (call: Call) => Reply {
  return (call) => {
    const content = workingCopy(call);
    const variant = call.core.variant;
    const imported = uploadedObjects(call, kind, variant);
    // Work on a clone so that a failure half-way leaves the session's copy untouched.
    const next = cloneContent(content);
    const objects = next.objects[kind.type];
    const touched: StoredObject[] = [];
    for (const attributes of imported) {
      const name = typeof attributes.name === 'string' ? attributes.name : '';
      const existing = asCopy ? undefined : [...objects.values()].find((o) => nameOf(o) === name);
      if (existing) {
        refuseBuiltIn(call, kind.type, existing.id);
        const replaced: StoredObject = { ...existing, attributes: fillItemDefaults(kind.type, newObjectAttributes(kind.type, variant, attributes)) };
        objects.set(existing.id, replaced);
        touched.push(replaced);
      } else {
        const id = String(next.nextId++);
        const used = new Set([...objects.values()].map(nameOf));
        let unique = name;
        for (let i = 2; asCopy && used.has(unique); i++) unique = `${name}_${i}`;
        const created: StoredObject = { type: kind.type, id, attributes: newObjectAttributes(kind.type, variant, { ...attributes, name: unique }), relationships: {} };
        objects.set(id, created);
        touched.push(created);
      }
    }
    content.objects[kind.type] = objects;
    content.nextId = next.nextId;
    return dataReply(touched.map((o) => resourceObject(o, variant)));
  };
}

/** The archive routes of one kind whose hooks say `objectArchives`. */
function objectArchiveRoutes(kind: KindDefinition): Route[] {
  const collection = ['configuration', kind.collection] as const;
  return [
    { method: 'GET', pattern: [...collection, ':id', 'export'], modifying: false, needsLoad: true, handle: exportObject(kind) },
    { method: 'PUT', pattern: [...collection, 'import'], modifying: true, needsLoad: true, handle: importObjects(kind, false) },
    { method: 'POST', pattern: [...collection, 'import'], modifying: true, needsLoad: true, handle: importObjects(kind, true) },
  ];
}

const CONFIGS = ['configuration', 'configurations'] as const;

/** Export and import routes (placed before the generic resource routes). */
export const transferRoutes: readonly Route[] = [
  { method: 'GET', pattern: [...CONFIGS, 'export'], modifying: false, needsLoad: true, handle: exportLoaded },
  { method: 'GET', pattern: [...CONFIGS, ':id', 'export'], modifying: false, needsLoad: true, handle: exportById },
  { method: 'PUT', pattern: [...CONFIGS, 'import'], modifying: false, needsLoad: false, handle: importConfiguration },
  ...KINDS.flatMap((kind) => (kind.emulator.objectArchives === true ? objectArchiveRoutes(kind) : [])),
];

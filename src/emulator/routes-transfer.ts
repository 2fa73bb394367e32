/**
 * Export and import (docs/gateway-api.md "Export and import"): a configuration as a
 * ZIP (`GET /configuration/configurations/export`, `.../{id}/export`,
 * `PUT /configuration/configurations/import`), and mappings as a ZIP
 * (`GET /configuration/mappings/{id}/export`, `PUT /configuration/mappings/import` replacing
 * by name, `POST /configuration/mappings/import` adding copies).
 *
 * The archives hold JSON written by the emulator (`configuration.json`, `mappings.json`);
 * they round-trip through the emulator, not into a real gateway.
 */
import type { Variant } from '../kinds/index.js';
import { decodeContent, encodeContent } from './configurations.js';
import type { ConfigContent, JsonObject, StoredObject } from './model.js';
import { cloneContent } from './model.js';
import { checkAttributes, fillItemDefaults, newObjectAttributes, readableAttributes } from './pure.js';
import type { Reply } from './responses.js';
import { ApiError, dataReply, errors } from './responses.js';
import { resourceObject } from './routes-resources.js';
import type { Call, Route } from './routing.js';
import { isJsonMediaType } from './server.js';
import { loadWorkingCopy, param, refuseBuiltIn, workingCopy } from './routing.js';
import { ZipFormatError, readZip, writeZip } from './zip.js';

const CONFIGURATION_FILE = 'configuration.json';
const MAPPINGS_FILE = 'mappings.json';
const FORMAT_VERSION = 1;

function zipReply(name: string, entries: { name: string; data: Buffer }[]): Reply {
  return {
    status: 200,
    binary: { contentType: 'application/zip', data: writeZip(entries) },
    headers: { 'Content-Disposition': `attachment; filename="${name}"` },
  };
}

/** The uploaded ZIP's entries. @throws ApiError 415 for another media type, 400 for an unreadable archive. */
function uploadedZip(call: Call): Map<string, Buffer> {
  const type = call.contentType;
  const media = (type?.split(';')[0] ?? '').trim().toLowerCase();
  if (type !== undefined && media !== 'application/zip' && media !== 'application/octet-stream' && !isJsonMediaType(type)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'upload the archive as application/zip');
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

function exportMapping(call: Call): Reply {
  const content = workingCopy(call);
  const id = param(call, 'id');
  const obj = content.objects.mapping.get(id);
  if (!obj) throw errors.notFound(`mapping ${id}`);
  const json = JSON.stringify({ formatVersion: FORMAT_VERSION, mappings: [{ attributes: obj.attributes }] });
  return zipReply(`mapping-${id}.zip`, [{ name: MAPPINGS_FILE, data: Buffer.from(json, 'utf8') }]);
}

/** The checked attribute objects of an uploaded mapping archive. */
function uploadedMappings(call: Call, variant: Variant): JsonObject[] {
  const raw = parseJsonEntry(uploadedZip(call), MAPPINGS_FILE);
  const list = typeof raw === 'object' && raw !== null ? (raw as { mappings?: unknown }).mappings : undefined;
  if (!Array.isArray(list)) throw errors.invalidFormat(`${MAPPINGS_FILE} has no mappings list`);
  return list.map((item: unknown, i) => {
    const attributes = typeof item === 'object' && item !== null ? (item as { attributes?: unknown }).attributes : undefined;
    const check = checkAttributes('mapping', variant, attributes);
    if (!check.ok) throw errors.invalidValue(`mapping ${i + 1} of the archive: ${check.detail}`);
    return check.value;
  });
}

function nameOf(obj: { attributes: Readonly<JsonObject> }): string | undefined {
  return typeof obj.attributes.name === 'string' ? obj.attributes.name : undefined;
}

function importMappings(asCopy: boolean): (call: Call) => Reply {
  return (call) => {
    const content = workingCopy(call);
    const variant = call.core.variant;
    const imported = uploadedMappings(call, variant);
    // Work on a clone so that a failure half-way leaves the session's copy untouched.
    const next = cloneContent(content);
    const touched: StoredObject[] = [];
    for (const attributes of imported) {
      const name = typeof attributes.name === 'string' ? attributes.name : '';
      const existing = asCopy ? undefined : [...next.objects.mapping.values()].find((m) => nameOf(m) === name);
      if (existing) {
        refuseBuiltIn(call, 'mapping', existing.id);
        const replaced: StoredObject = { ...existing, attributes: fillItemDefaults('mapping', newObjectAttributes('mapping', variant, attributes)) };
        next.objects.mapping.set(existing.id, replaced);
        touched.push(replaced);
      } else {
        const id = String(next.nextId++);
        const used = new Set([...next.objects.mapping.values()].map(nameOf));
        let unique = name;
        for (let i = 2; asCopy && used.has(unique); i++) unique = `${name}_${i}`;
        const created: StoredObject = { type: 'mapping', id, attributes: newObjectAttributes('mapping', variant, { ...attributes, name: unique }), relationships: {} };
        next.objects.mapping.set(id, created);
        touched.push(created);
      }
    }
    content.objects.mapping = next.objects.mapping;
    content.nextId = next.nextId;
    return dataReply(touched.map((m) => resourceObject(m, variant)));
  };
}

const CONFIGS = ['configuration', 'configurations'] as const;

/** Export and import routes (placed before the generic resource routes). */
export const transferRoutes: readonly Route[] = [
  { method: 'GET', pattern: [...CONFIGS, 'export'], modifying: false, needsLoad: true, handle: exportLoaded },
  { method: 'GET', pattern: [...CONFIGS, ':id', 'export'], modifying: false, needsLoad: true, handle: exportById },
  { method: 'PUT', pattern: [...CONFIGS, 'import'], modifying: false, needsLoad: false, handle: importConfiguration },
  { method: 'GET', pattern: ['configuration', 'mappings', ':id', 'export'], modifying: false, needsLoad: true, handle: exportMapping },
  { method: 'PUT', pattern: ['configuration', 'mappings', 'import'], modifying: true, needsLoad: true, handle: importMappings(false) },
  { method: 'POST', pattern: ['configuration', 'mappings', 'import'], modifying: true, needsLoad: true, handle: importMappings(true) },
];

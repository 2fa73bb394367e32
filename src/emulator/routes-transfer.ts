/**
 * Export and import (docs/gateway-api.md "Export and import"): a configuration as a
 * ZIP holding `alec_full.xml` (`GET /configuration/configurations/export`, `.../{id}/export`,
 * `PUT /configuration/configurations/import`), and, for every kind whose emulator hooks
 * declare an `objectArchive` (mappings: `alec_table.xml`), its objects as a ZIP
 * (`GET /configuration/{collection}/{id}/export`, `PUT /configuration/{collection}/import`
 * replacing by name, `POST /configuration/{collection}/import` adding copies).
 *
 * The XML files hold the elements real clients read, in a real gateway's structure
 * (archive-xml.ts). The configuration archive also holds the emulator's complete content as
 * JSON (`gwops-emulator.json`), which its import reads, so that export and import give back
 * every object, attribute and link; an object archive carries each object's attributes in
 * its XML, and its import applies the `Name`, `Enabled` and `LogOnly` a client edited.
 */
import { createHash } from 'node:crypto';
import { KINDS } from '../kinds/index.js';
import type { KindDefinition, Variant } from '../kinds/index.js';
import type { ObjectArchive } from '../kinds/emulator-hooks.js';
import { denyRuleSections, objectElement, ownAttributesIn, usageIn } from './archive-xml.js';
import { decodeContent, encodeContent } from './configurations.js';
import { storedUsage } from './deny-rules.js';
import type { ConfigContent, DenyRuleUsage, JsonObject, StoredObject } from './model.js';
import { cloneContent } from './model.js';
import { checkAttributes, fillItemDefaults, newObjectAttributes, readableAttributes } from './pure.js';
import type { Reply } from './responses.js';
import { EmulatorApiError, dataReply, errors } from './responses.js';
import { resourceObject } from './routes-resources.js';
import type { Call, Route } from './routing.js';
import { isJsonMediaType } from './server.js';
import { isJsonObject, loadWorkingCopy, param, refuseBuiltIn, workingCopy } from './routing.js';
import type { XmlElement } from './xml.js';
import { XmlFormatError, childNamed, childrenNamed, element, parseXml, writeXml } from './xml.js';
import { ZipFormatError, readZip, writeZip } from './zip.js';

/** The file of a configuration archive (docs/gateway-api.md "Export and import"). */
const CONFIGURATION_FILE = 'alec_full.xml';
/** The entry of a configuration archive holding the emulator's complete content (configurations.ts `EncodedContent`). */
const CONTENT_FILE = 'gwops-emulator.json';
/** The root element of the archives' XML, and its `Version` attribute (that of the 7.x sample the shape follows). */
const ROOT = 'ConfigRoot';
const VERSION = '116';

function zipReply(name: string, entries: { name: string; data: Buffer }[]): Reply {
  return {
    status: 200,
    binary: { contentType: 'application/zip', data: writeZip(entries) },
    headers: { 'Content-Disposition': `attachment; filename="${name}"` },
  };
}

/** A ZIP entry holding the XML document of `root`. */
function xmlEntry(name: string, root: XmlElement): { name: string; data: Buffer } {
  return { name, data: Buffer.from(writeXml(root), 'utf8') };
}

/**
 * The content of the first part of a multipart form body (`--boundary CRLF headers CRLF CRLF
 * content CRLF --boundary`), whatever Content-Type was sent with it; undefined when `body` is
 * no multipart form. Some clients send the archive so under an `application/zip` header
 * (docs/gateway-api.md "What real clients send").
 */
export function formPart(body: Buffer): Buffer | undefined {
  if (body.length < 4 || body[0] !== 0x2d || body[1] !== 0x2d) return undefined;
  const lineEnd = body.indexOf('\r\n');
  if (lineEnd < 3 || lineEnd > 200) return undefined;
  const delimiter = Buffer.concat([Buffer.from('\r\n'), body.subarray(0, lineEnd)]);
  const headersEnd = body.indexOf('\r\n\r\n', lineEnd);
  if (headersEnd < 0) return undefined;
  const start = headersEnd + 4;
  const end = body.indexOf(delimiter, start);
  return end < 0 ? undefined : body.subarray(start, end);
}

/** The uploaded ZIP's entries. @throws EmulatorApiError 415 for another media type, 400 for an unreadable archive. */
function uploadedZip(call: Call): Map<string, Buffer> {
  const type = call.contentType;
  const media = (type?.split(';')[0] ?? '').trim().toLowerCase();
  if (type !== undefined && media !== 'application/zip' && media !== 'application/octet-stream' && media !== 'multipart/form-data' && !isJsonMediaType(type)) {
    throw new EmulatorApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'upload the archive as application/zip');
  }
  try {
    return new Map(readZip(formPart(call.raw()) ?? call.raw()).map((e) => [e.name, e.data]));
  } catch (error) {
    if (error instanceof ZipFormatError) throw errors.invalidFormat(`the upload is not a readable archive: ${error.message}`);
    throw error;
  }
}

/** The root element of the archive's XML file `name`. @throws EmulatorApiError 400 INVALID_REQUEST_FORMAT. */
function xmlRoot(entries: Map<string, Buffer>, name: string): XmlElement {
  const data = entries.get(name);
  if (!data) throw errors.invalidFormat(`the archive has no ${name}`);
  try {
    return parseXml(data.toString('utf8'));
  } catch (error) {
    if (error instanceof XmlFormatError) throw errors.invalidFormat(`${name} in the archive is not readable XML: ${error.message}`);
    throw error;
  }
}

function configurationZip(call: Call, content: ConfigContent, name: string): Reply {
  const json = Buffer.from(JSON.stringify(encodeContent(content)), 'utf8');
  const archived = KINDS.flatMap((kind) => {
    const archive = kind.emulator.objectArchive;
    if (archive === undefined) return [];
    const objects = [...content.objects[kind.type].values()].sort((a, b) => Number(a.id) - Number(b.id));
    return [element(archive.listElement, objects.map((obj) => objectElement(obj, archive, false)))];
  });
  const root = element(
    ROOT,
    [element('Nodes', [element('Node', [element('HostName', call.core.system.node.hostName)], { Id: '1' })]), ...archived, ...denyRuleSections()],
    { Version: VERSION, ConfigHash: createHash('sha256').update(json).digest('hex') },
  );
  return zipReply(name, [xmlEntry(CONFIGURATION_FILE, root), { name: CONTENT_FILE, data: json }]);
}

function exportLoaded(call: Call): Reply {
  return configurationZip(call, workingCopy(call), 'configuration.zip');
}

function exportById(call: Call): Reply {
  const id = param(call, 'id');
  const entry = call.core.configurations.get(id);
  if (!entry) throw errors.notFound(`configuration ${id}`);
  return configurationZip(call, entry.content, `configuration-${id}.zip`);
}

/** The host name of the archive's first node (`HostName` of the first child of `Nodes`), when it names one. */
function archiveHostName(root: XmlElement): string | undefined {
  const node = childNamed(root, 'Nodes')?.children[0];
  const name = node === undefined ? undefined : childNamed(node, 'HostName')?.text.trim();
  return name === '' ? undefined : name;
}

/**
 * Refuses an archive made on another node when no `resolution` query parameter says how to
 * take it (later variants only; docs/gateway-api.md "Export and import").
 * @throws EmulatorApiError 422 RESOLUTION_REQUIRED.
 */
function checkArchiveNode(call: Call, root: XmlElement): void {
  if (call.core.variant === 'earliest' || (call.query.get('resolution') ?? []).some((v) => v !== '')) return;
  const archived = archiveHostName(root);
  const current = call.core.system.node.hostName;
  if (archived !== undefined && archived !== current) {
    throw new EmulatorApiError(
      422,
      'RESOLUTION_REQUIRED',
      `the archive was exported on node '${archived}', this node is '${current}': rename the node (PATCH /configuration/nodes/current) or give a resolution parameter`,
    );
  }
}

/** Import loads the archive's configuration into the session, like a load. */
function importConfiguration(call: Call): Reply {
  const entries = uploadedZip(call);
  checkArchiveNode(call, xmlRoot(entries, CONFIGURATION_FILE));
  const json = entries.get(CONTENT_FILE);
  if (!json) throw errors.invalidFormat(`the archive has no ${CONTENT_FILE}: the emulator imports the configuration archives it exported`);
  let raw: unknown;
  try {
    raw = JSON.parse(json.toString('utf8'));
  } catch {
    throw errors.invalidFormat(`${CONTENT_FILE} in the archive does not hold JSON`);
  }
  const content = decodeContent(raw, (why) => errors.invalidFormat(`${CONTENT_FILE}: ${why}`));
  for (const map of Object.values(content.objects)) {
    for (const obj of map.values()) {
      const check = checkAttributes(obj.type, call.core.variant, readableAttributes(obj.type, obj.attributes));
      if (!check.ok) throw errors.invalidValue(`${obj.type} ${obj.id}: ${check.detail}`);
    }
  }
  loadWorkingCopy(call, content);
  return dataReply(null);
}

function exportObject(kind: KindDefinition, archive: ObjectArchive): (call: Call) => Reply {
  return (call) => {
    const content = workingCopy(call);
    const id = param(call, 'id');
    const obj = content.objects[kind.type].get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    const root = element(ROOT, [element(archive.listElement, [objectElement(obj, archive, true)])], { Version: VERSION });
    return zipReply(`${kind.type}-${id}.zip`, [xmlEntry(archive.file, root)]);
  };
}

/** One object of an uploaded object archive: its checked attributes and its deny rule usage. */
interface UploadedObject {
  readonly attributes: JsonObject;
  readonly denyRuleUsage: ReadonlyMap<string, DenyRuleUsage>;
}

/**
 * The objects of an uploaded archive of `kind`'s objects: one per `./{list}/{item}` element,
 * its `GwopsAttributes` JSON (none: the server defaults) with the text of its `Name` (what
 * clients edit) as the name, and the deny rule usage its `Enabled` and `LogOnly` flags state.
 */
function uploadedObjects(call: Call, kind: KindDefinition, archive: ObjectArchive, variant: Variant): UploadedObject[] {
  const file = archive.file;
  const list = childNamed(xmlRoot(uploadedZip(call), file), archive.listElement);
  if (!list) throw errors.invalidFormat(`${file} has no <${archive.listElement}>`);
  return childrenNamed(list, archive.itemElement).map((item, i) => {
    const attributes = ownAttributesIn(item, file);
    const name = childNamed(item, 'Name');
    const given = name !== undefined && isJsonObject(attributes) ? { ...attributes, name: name.text } : attributes;
    const check = checkAttributes(kind.type, variant, given);
    if (!check.ok) throw errors.invalidValue(`${kind.type} ${i + 1} of the archive: ${check.detail}`);
    return { attributes: check.value, denyRuleUsage: archive.denyRuleUsage === true ? usageIn(item, file) : new Map() };
  });
}

/** Of `ids` (keys of `objects`), the one that comes first in the map's order; undefined for none. */
function firstInMapOrder(objects: ReadonlyMap<string, StoredObject>, ids: readonly string[]): string | undefined {
  if (ids.length <= 1) return ids[0];
  const wanted = new Set(ids);
  for (const id of objects.keys()) if (wanted.has(id)) return id;
  return undefined;
}

function importObjects(kind: KindDefinition, archive: ObjectArchive, asCopy: boolean): (call: Call) => Reply {
  return (call) => {
    const content = workingCopy(call);
    const variant = call.core.variant;
    const imported = uploadedObjects(call, kind, archive, variant);
    // Work on a clone so that a failure half-way leaves the session's copy untouched.
    const next = cloneContent(content);
    const objects = next.objects[kind.type];
    const touched: StoredObject[] = [];
    for (const { attributes, denyRuleUsage } of imported) {
      const usage = storedUsage(denyRuleUsage);
      const name = typeof attributes.name === 'string' ? attributes.name : '';
      const existingId = asCopy ? undefined : firstInMapOrder(objects, objects.idsNamed(name));
      const existing = existingId === undefined ? undefined : objects.get(existingId);
      if (existing) {
        refuseBuiltIn(call, kind.type, existing.id);
        const { denyRuleUsage: _old, ...kept } = existing;
        const replaced: StoredObject = { ...kept, attributes: fillItemDefaults(kind.type, newObjectAttributes(kind.type, variant, attributes)), ...(usage ? { denyRuleUsage: usage } : {}) };
        objects.set(existing.id, replaced);
        touched.push(replaced);
      } else {
        const id = String(next.nextId++);
        let unique = name;
        for (let i = 2; asCopy && objects.idsNamed(unique).length > 0; i++) unique = `${name}_${i}`;
        const created: StoredObject = {
          type: kind.type,
          id,
          attributes: newObjectAttributes(kind.type, variant, { ...attributes, name: unique }),
          relationships: {},
          ...(usage ? { denyRuleUsage: usage } : {}),
        };
        objects.set(id, created);
        touched.push(created);
      }
    }
    content.objects[kind.type] = objects;
    content.nextId = next.nextId;
    return dataReply(touched.map((o) => resourceObject(o, variant)));
  };
}

/** The archive routes of one kind whose hooks declare an `objectArchive`. */
function objectArchiveRoutes(kind: KindDefinition, archive: ObjectArchive): Route[] {
  const collection = ['configuration', kind.collection] as const;
  return [
    { method: 'GET', pattern: [...collection, ':id', 'export'], modifying: false, needsLoad: true, handle: exportObject(kind, archive) },
    { method: 'PUT', pattern: [...collection, 'import'], modifying: true, needsLoad: true, handle: importObjects(kind, archive, false) },
    { method: 'POST', pattern: [...collection, 'import'], modifying: true, needsLoad: true, handle: importObjects(kind, archive, true) },
  ];
}

const CONFIGS = ['configuration', 'configurations'] as const;

/** Export and import routes (placed before the generic resource routes). */
export const transferRoutes: readonly Route[] = [
  { method: 'GET', pattern: [...CONFIGS, 'export'], modifying: false, needsLoad: true, handle: exportLoaded },
  { method: 'GET', pattern: [...CONFIGS, ':id', 'export'], modifying: false, needsLoad: true, handle: exportById },
  { method: 'PUT', pattern: [...CONFIGS, 'import'], modifying: false, needsLoad: false, handle: importConfiguration },
  ...KINDS.flatMap((kind) => (kind.emulator.objectArchive === undefined ? [] : objectArchiveRoutes(kind, kind.emulator.objectArchive))),
];

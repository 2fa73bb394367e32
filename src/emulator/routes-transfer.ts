/**
 * Export and import (docs/gateway-api.md "Export and import"): a configuration as a
 * ZIP holding `alec_full.xml` (`GET /configuration/configurations/export`, `.../{id}/export`,
 * `PUT /configuration/configurations/import`), and, for every kind whose emulator hooks
 * declare an `objectArchive` (mappings: `alec_table.xml`), its objects as a ZIP
 * (`GET /configuration/{collection}/{id}/export`, `PUT /configuration/{collection}/import`
 * replacing by name, `POST /configuration/{collection}/import` adding copies).
 *
 * The file names and the elements real clients read (`./Nodes/Node/HostName`,
 * `./Mappings/Mapping/Name`) are a real gateway's; the rest of the vocabulary is the
 * emulator's own: each object's attributes and links are JSON text inside an element.
 * The archives round-trip through the emulator, not into a real gateway.
 */
import { KINDS } from '../kinds/index.js';
import type { KindDefinition, Variant } from '../kinds/index.js';
import type { ObjectArchive } from '../kinds/emulator-hooks.js';
import { decodeContent, encodeContent } from './configurations.js';
import type { ConfigContent, Json, JsonObject, StoredObject } from './model.js';
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
/** The root element and its `format` attribute (the emulator's vocabulary). */
const ROOT = 'Configuration';
const FORMAT = 'gwops-emulator-1';

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

/** The JSON text of child `name` of `parent`; `fallback` when the child is absent. @throws EmulatorApiError 400 INVALID_REQUEST_FORMAT. */
function jsonChild(parent: XmlElement, name: string, file: string, fallback?: Json): Json {
  const child = childNamed(parent, name);
  if (!child) {
    if (fallback !== undefined) return fallback;
    throw errors.invalidFormat(`${file}: <${parent.name}> has no <${name}>`);
  }
  try {
    return JSON.parse(child.text) as Json;
  } catch {
    throw errors.invalidFormat(`${file}: <${name}> of <${parent.name}> does not hold JSON`);
  }
}

function configurationZip(call: Call, content: ConfigContent, name: string): Reply {
  const encoded = encodeContent(content);
  const root = element(
    ROOT,
    [
      element('Nodes', [element('Node', [element('HostName', call.core.system.node.hostName)])]),
      element('NextId', String(encoded.nextId)),
      element(
        'Objects',
        encoded.objects.map((obj) =>
          element('Object', [element('Attributes', JSON.stringify(obj.attributes)), element('Relationships', JSON.stringify(obj.relationships))], {
            type: obj.type,
            id: obj.id,
          }),
        ),
      ),
    ],
    { format: FORMAT },
  );
  return zipReply(name, [xmlEntry(CONFIGURATION_FILE, root)]);
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

/** The encoded content (configurations.ts `EncodedContent`) that a configuration archive's XML holds. */
function encodedOf(root: XmlElement): unknown {
  const nextId = Number(childNamed(root, 'NextId')?.text.trim());
  const objects = childrenNamed(childNamed(root, 'Objects') ?? root, 'Object').map((o) => ({
    type: o.attributes.type,
    id: o.attributes.id,
    attributes: jsonChild(o, 'Attributes', CONFIGURATION_FILE),
    relationships: jsonChild(o, 'Relationships', CONFIGURATION_FILE, {}),
  }));
  return { nextId: Number.isSafeInteger(nextId) ? nextId : undefined, objects };
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
  const root = xmlRoot(uploadedZip(call), CONFIGURATION_FILE);
  checkArchiveNode(call, root);
  const raw = encodedOf(root);
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

function exportObject(kind: KindDefinition, archive: ObjectArchive): (call: Call) => Reply {
  return (call) => {
    const content = workingCopy(call);
    const id = param(call, 'id');
    const obj = content.objects[kind.type].get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    const name = typeof obj.attributes.name === 'string' ? obj.attributes.name : '';
    const item = element(archive.itemElement, [element('Name', name), element('Attributes', JSON.stringify(obj.attributes))]);
    const root = element(ROOT, [element(archive.listElement, [item])], { format: FORMAT });
    return zipReply(`${kind.type}-${id}.zip`, [xmlEntry(archive.file, root)]);
  };
}

/**
 * The checked attribute objects of an uploaded archive of `kind`'s objects: one per
 * `./{list}/{item}` element, its `Attributes` JSON with the text of its `Name` (what
 * clients edit) as the name.
 */
function uploadedObjects(call: Call, kind: KindDefinition, archive: ObjectArchive, variant: Variant): JsonObject[] {
  const file = archive.file;
  const list = childNamed(xmlRoot(uploadedZip(call), file), archive.listElement);
  if (!list) throw errors.invalidFormat(`${file} has no <${archive.listElement}>`);
  return childrenNamed(list, archive.itemElement).map((item, i) => {
    const attributes = jsonChild(item, 'Attributes', file);
    const name = childNamed(item, 'Name');
    const given = name !== undefined && isJsonObject(attributes) ? { ...attributes, name: name.text } : attributes;
    const check = checkAttributes(kind.type, variant, given);
    if (!check.ok) throw errors.invalidValue(`${kind.type} ${i + 1} of the archive: ${check.detail}`);
    return check.value;
  });
}

function nameOf(obj: { attributes: Readonly<JsonObject> }): string | undefined {
  return typeof obj.attributes.name === 'string' ? obj.attributes.name : undefined;
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

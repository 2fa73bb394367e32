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
import type { ObjectArchive, StoredUsage } from '../kinds/emulator-hooks.js';
import { objectElement, ownAttributesIn } from './archive-xml.js';
import { ContentJsonReader, contentJsonPieces } from './content-json.js';
import type { ConfigContent, JsonObject, StoredObject } from './model.js';
import { cloneContent } from './model.js';
import { checkAttributes, fillItemDefaults, newObjectAttributes, readableAttributes } from './pure.js';
import type { Reply } from './responses.js';
import { EmulatorApiError, dataReply, errors } from './responses.js';
import { resourceObject } from './routes-resources.js';
import type { Call, Route } from './routing.js';
import { isJsonMediaType } from './server.js';
import { isJsonObject, loadWorkingCopy, param, refuseBuiltIn, workingCopy } from './routing.js';
import type { StreamedElement, XmlElement } from './xml.js';
import { XmlFormatError, childNamed, childrenNamed, element, parseXml, writeXml, writeXmlPieces } from './xml.js';
import { ZipFormatError, ZipWriter, readZip, readZipStreamed, writeZip } from './zip.js';
import { withoutDelimited } from '../core/linear-text.js';

/** The file of a configuration archive (docs/gateway-api.md "Export and import"). */
const CONFIGURATION_FILE = 'alec_full.xml';
/** The entry of a configuration archive holding the emulator's complete content (configurations.ts `EncodedContent`). */
const CONTENT_FILE = 'gwops-emulator.json';
/** The root element of the archives' XML, and its `Version` attribute (that of the 7.x sample the shape follows). */
const ROOT = 'ConfigRoot';
const VERSION = '116';
/** What may stand before an XML document's root element: processing instructions and comments, as open and close strings. */
const XML_PROLOGUE_PARTS: readonly (readonly [string, string])[] = [
  ['<?', '?>'],
  ['<!--', '-->'],
];

function zipReply(name: string, zip: Buffer): Reply {
  return {
    status: 200,
    binary: { contentType: 'application/zip', data: zip },
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

/** The uploaded archive's bytes. @throws EmulatorApiError 415 for another media type. */
function uploadedArchive(call: Call): Buffer {
  const type = call.contentType;
  const media = (type?.split(';')[0] ?? '').trim().toLowerCase();
  if (type !== undefined && media !== 'application/zip' && media !== 'application/octet-stream' && media !== 'multipart/form-data' && !isJsonMediaType(type)) {
    throw new EmulatorApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'upload the archive as application/zip');
  }
  return formPart(call.raw()) ?? call.raw();
}

/** Runs `read` over the upload, an unreadable archive answered 400. @throws EmulatorApiError 415, 400 */
function readingArchive<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ZipFormatError) throw errors.invalidFormat(`the upload is not a readable archive: ${error.message}`);
    throw error;
  }
}

/** The uploaded ZIP's entries. @throws EmulatorApiError 415 for another media type, 400 for an unreadable archive. */
function uploadedZip(call: Call): Map<string, Buffer> {
  const archive = uploadedArchive(call);
  return readingArchive(() => new Map(readZip(archive).map((e) => [e.name, e.data])));
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

/** The objects of `content` of a kind, in id order. */
function* inIdOrder(content: ConfigContent, kind: KindDefinition): Generator<StoredObject> {
  yield* [...content.objects[kind.type].values()].sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * The configuration archive of `content`, written piece by piece (zip.ts `ZipWriter`): its
 * JSON entry first, so that its digest can be named in the XML's `ConfigHash`, though the
 * XML is stored first; each archived object's element is made as it is written.
 */
function configurationZip(call: Call, content: ConfigContent, name: string): Reply {
  const zip = new ZipWriter();
  const xml = zip.open(CONFIGURATION_FILE);
  const json = zip.open(CONTENT_FILE);
  const hash = createHash('sha256');
  for (const piece of contentJsonPieces(content)) {
    hash.update(piece, 'utf8');
    json.write(piece);
  }
  json.end();
  const archived = KINDS.flatMap((kind): StreamedElement[] => {
    const archive = kind.emulator.objectArchive;
    if (archive === undefined) return [];
    return [{ name: archive.listElement, attributes: {}, stream: map(inIdOrder(content, kind), (obj) => objectElement(obj, archive, false)) }];
  });
  const root: StreamedElement = {
    name: ROOT,
    attributes: { Version: VERSION, ConfigHash: hash.digest('hex') },
    stream: [element('Nodes', [element('Node', [element('HostName', call.core.system.node.hostName)], { Id: '1' })]), ...archived, ...KINDS.flatMap((kind) => kind.emulator.objectArchive?.usage?.sections() ?? [])],
  };
  for (const piece of writeXmlPieces(root)) xml.write(piece);
  xml.end();
  return zipReply(name, zip.finish());
}

/** `f` of each item, made when asked for. */
function* map<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
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

/**
 * `alec_full.xml` up to this size is read whole (and so checked); beyond it, only up to its
 * `Nodes`, all that an import takes from it (parsing the XML of 100,000 mappings would take
 * minutes).
 */
const WHOLE_XML_BYTES = 1024 * 1024;

/**
 * Gathers the bytes of an archive's XML file as they are inflated, all of them up to
 * {@link WHOLE_XML_BYTES}, and of a larger one what comes first (where its `Nodes` are; a
 * configuration of 100,000 mappings has far more XML than one string may hold).
 */
class XmlHead {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  #whole = true;

  receive(chunk: Uint8Array): void {
    if (this.#bytes + chunk.length > WHOLE_XML_BYTES) {
      this.#whole = false;
      if (this.#bytes > WHOLE_XML_BYTES) return;
    }
    this.#chunks.push(Buffer.from(chunk));
    this.#bytes += chunk.length;
  }

  /** The root element, of a large file with the `Nodes` element as its only child. @throws EmulatorApiError 400 INVALID_REQUEST_FORMAT */
  root(name: string): XmlElement {
    let text = Buffer.concat(this.#chunks).toString('utf8');
    if (!this.#whole) {
      const rootName = /<([A-Za-z_][\w.:-]*)/.exec(withoutDelimited(text, XML_PROLOGUE_PARTS))?.[1];
      const end = /<\/Nodes\s*>|<Nodes\s*\/>/.exec(text);
      if (rootName === undefined || !end) throw errors.invalidFormat(`${name} in the archive has no <Nodes> near its start`);
      text = `${text.slice(0, end.index + end[0].length)}</${rootName}>`;
    }
    try {
      return parseXml(text);
    } catch (error) {
      if (error instanceof XmlFormatError) throw errors.invalidFormat(`${name} in the archive is not readable XML: ${error.message}`);
      throw error;
    }
  }
}

/**
 * Import loads the archive's configuration into the session, like a load. Its entries are
 * read as they are inflated (zip.ts `readZipStreamed`): the JSON entry object by object.
 */
function importConfiguration(call: Call): Reply {
  const archive = uploadedArchive(call);
  const xml = new XmlHead();
  const reader = new ContentJsonReader(call.core.variant, (why) => errors.invalidFormat(`${CONTENT_FILE}: ${why}`));
  const seen = new Set<string>();
  readingArchive(() =>
    readZipStreamed(archive, (name) => {
      seen.add(name);
      if (name === CONFIGURATION_FILE) return (chunk) => xml.receive(chunk);
      return name === CONTENT_FILE ? (chunk) => reader.write(chunk) : undefined;
    }),
  );
  if (!seen.has(CONFIGURATION_FILE)) throw errors.invalidFormat(`the archive has no ${CONFIGURATION_FILE}`);
  checkArchiveNode(call, xml.root(CONFIGURATION_FILE));
  if (!seen.has(CONTENT_FILE)) throw errors.invalidFormat(`the archive has no ${CONTENT_FILE}: the emulator imports the configuration archives it exported`);
  const content = reader.result();
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
    return zipReply(`${kind.type}-${id}.zip`, writeZip([xmlEntry(archive.file, root)]));
  };
}

/** One object of an uploaded object archive: its checked attributes and the use its kind's `ObjectArchive.usage` reads (a mapping's deny rule usage). */
interface UploadedObject {
  readonly attributes: JsonObject;
  readonly usage: ReadonlyMap<string, StoredUsage>;
}

/**
 * The objects of an uploaded archive of `kind`'s objects: one per `./{list}/{item}` element,
 * its `GwopsAttributes` JSON (none: the server defaults) with the text of its `Name` (what
 * clients edit) as the name, and the use its kind's archive hook reads (a mapping's deny rule
 * usage, from its `Enabled` and `LogOnly` flags).
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
    return { attributes: check.value, usage: archive.usage?.read(item, file, errors) ?? new Map<string, StoredUsage>() };
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
    for (const { attributes, usage: given } of imported) {
      const name = typeof attributes.name === 'string' ? attributes.name : '';
      const existingId = asCopy ? undefined : firstInMapOrder(objects, objects.idsNamed(name));
      const existing = existingId === undefined ? undefined : objects.get(existingId);
      const usage = archive.usage ? archive.usage.stored(given, existing?.denyRuleUsage) : existing?.denyRuleUsage;
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

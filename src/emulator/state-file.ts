/**
 * The emulator's state file (`--state-file`): its format, written piece by piece and read
 * back piece by piece, so 100,000 mappings (and several configurations of them) never
 * exist as one string; and the atomic write that keeps the previous file whole when a
 * write fails half-way.
 *
 * Format 2 is one JSON document `{"formatVersion":2,"data":[…]}` with one element a line:
 * - `{"header":{variant, activeId, activationCount, nextConfigId}}` first;
 * - `{"defaults":{type, attributes}}`: the server-default attribute tree of a kind, as the
 *   emulator that wrote the file had it;
 * - `{"object":{type, id, attributes, absent?, relationships, denyRuleUsage?, content?}}`: one stored
 *   object, numbered by its order; `attributes` holds only what differs from its kind's
 *   `defaults` (objects merged member by member, anything else whole), `absent` the paths of
 *   default members the object lacks. Read back over the same defaults, the objects share
 *   their untouched subtrees again (a few hundred bytes each instead of 9 kB);
 * - `{"entry":{id, origin, comment?, createdAt, createdBy, nextId, objects}}`: one stored
 *   configuration, `objects` the numbers of its objects (objects shared between
 *   configurations are written once).
 *
 * Format 1 (the whole state as one JSON object with full attributes) is still read.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { isResourceType } from '../kinds/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { DataArraySplitter } from '../gateway/data-array.js';
import { isJsonObject } from './attributes.js';
import { defaultAttributes } from './defaults.js';
import { shareTree } from './json-text.js';
import type { ConfigContent, JsonObject, StoredObject } from './model.js';
import { emptyContent } from './model.js';
import { toStoredObject } from './stored-object.js';
import { SAME, difference, rebuilt } from './attribute-delta.js';

/** How a configuration came to exist. */
export type ConfigurationOrigin = 'INITIAL' | 'SAVED' | 'ACTIVATED';

/** One stored configuration. Its content is never edited (sessions edit clones). */
export interface ConfigurationEntry {
  readonly id: string;
  readonly origin: ConfigurationOrigin;
  readonly comment: string | undefined;
  /** ISO 8601. */
  readonly createdAt: string;
  /** The user name of the key that created it, e.g. `admin`. */
  readonly createdBy: string;
  readonly content: ConfigContent;
}

/** Everything a state file holds. */
export interface StoredState {
  readonly entries: readonly ConfigurationEntry[];
  readonly activeId: string;
  readonly activationCount: number;
  readonly nextConfigId: number;
}

const FORMAT_VERSION = 2;
/** Bytes gathered before one write or read. */
const CHUNK_BYTES = 1024 * 1024;

// ---------------------------------------------------------------------------------------
// Writing

/** The lines of a format-2 state file (see the module comment). */
function* stateLines(variant: Variant, state: StoredState): Generator<string> {
  const { entries, activeId, activationCount, nextConfigId } = state;
  yield `{"formatVersion":${FORMAT_VERSION},"data":[\n`;
  yield JSON.stringify({ header: { variant, activeId, activationCount, nextConfigId } });
  const types = new Set<ResourceType>();
  for (const e of entries) for (const [type, map] of Object.entries(e.content.objects)) if (map.size > 0) types.add(type as ResourceType);
  for (const type of types) yield `,\n${JSON.stringify({ defaults: { type, attributes: defaultAttributes(type, variant) } })}`;
  const index = new Map<StoredObject, number>();
  const refs: number[][] = [];
  for (const e of entries) {
    const own: number[] = [];
    for (const map of Object.values(e.content.objects)) {
      for (const obj of map.values()) {
        let i = index.get(obj);
        if (i === undefined) {
          i = index.size;
          index.set(obj, i);
          yield `,\n${objectLine(obj, variant)}`;
        }
        own.push(i);
      }
    }
    refs.push(own);
  }
  for (const [k, e] of entries.entries()) {
    const entry = {
      id: e.id,
      origin: e.origin,
      ...(e.comment === undefined ? {} : { comment: e.comment }),
      createdAt: e.createdAt,
      createdBy: e.createdBy,
      nextId: e.content.nextId,
      objects: refs[k] ?? [],
    };
    yield `,\n${JSON.stringify({ entry })}`;
  }
  yield '\n]}\n';
}

/**
 * The element of each stored object, per variant: objects never change (an edit stores a
 * new one), so an activation writes again only what changed since the last (a few hundred
 * bytes an object, against the seconds its difference from the defaults takes at 100,000).
 */
const objectLines: Record<Variant, WeakMap<StoredObject, string>> = { earliest: new WeakMap(), middle: new WeakMap(), latest: new WeakMap() };

function objectLine(obj: StoredObject, variant: Variant): string {
  let line = objectLines[variant].get(obj);
  if (line === undefined) {
    line = objectElement(obj, variant);
    objectLines[variant].set(obj, line);
  }
  return line;
}

function objectElement(obj: StoredObject, variant: Variant): string {
  const absent: string[][] = [];
  const delta = difference(obj.attributes, defaultAttributes(obj.type, variant), [], absent);
  const object = {
    type: obj.type,
    id: obj.id,
    attributes: delta === SAME ? {} : delta,
    ...(absent.length > 0 ? { absent } : {}),
    relationships: obj.relationships,
    ...(obj.denyRuleUsage ? { denyRuleUsage: obj.denyRuleUsage } : {}),
    ...(obj.content ? { content: obj.content } : {}),
  };
  return JSON.stringify({ object });
}

/**
 * Writes the state of `variant`'s configurations to `file` atomically, piece by piece.
 * @throws the file system's error when writing fails (the previous file is then intact)
 */
export function writeState(file: string, variant: Variant, state: StoredState): void {
  writeAtomically(file, stateLines(variant, state));
}

/**
 * Writes `pieces` to `file` so that the file holds either the old or the new text, never a
 * mix: temp file in the same directory (mode 0600), written in chunks of about 1 MB, fsync,
 * rename over, fsync of the directory.
 */
export function writeAtomically(file: string, pieces: Iterable<string>): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    let chunk = '';
    for (const piece of pieces) {
      chunk += piece;
      if (chunk.length < CHUNK_BYTES) continue;
      writeSync(fd, chunk);
      chunk = '';
    }
    if (chunk !== '') writeSync(fd, chunk);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, file);
  try {
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Directories cannot be fsynced on every platform; the rename itself is atomic.
  }
}

// ---------------------------------------------------------------------------------------
// Reading

/** A value read from the file as text: strings as they are, anything else as JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** The error of an unusable state file, built by the caller. */
export type Bad = (why: string) => Error;

/**
 * Reads a state file written by {@link writeState} (format 2, piece by piece) or by an
 * earlier emulator (format 1, one JSON text).
 * @returns undefined when the file does not exist
 * @throws the error `bad` builds when the file is not a usable state file or was written by
 *   another variant; the file system's error when it cannot be read
 */
export function readState(file: string, variant: Variant, bad: Bad): StoredState | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
    const first = buffer.subarray(0, read);
    const version = /^\s*\{\s*"formatVersion"\s*:\s*(\d+)/.exec(first.subarray(0, 64).toString('utf8'))?.[1];
    if (version === '1') {
      const parts = [Buffer.from(first)];
      while ((read = readSync(fd, buffer, 0, CHUNK_BYTES, null)) > 0) parts.push(Buffer.from(buffer.subarray(0, read)));
      return parseVersion1(Buffer.concat(parts).toString('utf8'), variant, bad);
    }
    if (version !== String(FORMAT_VERSION)) throw bad(`unknown formatVersion ${version ?? 'undefined'}`);
    const reader = new StateReader(variant, bad);
    const splitter = new DataArraySplitter((element) => reader.element(element));
    const feed = (chunk: Buffer): void => {
      try {
        splitter.write(chunk);
      } catch (error) {
        if (error instanceof SyntaxError) throw bad('not JSON');
        throw error;
      }
    };
    feed(first);
    while ((read = readSync(fd, buffer, 0, CHUNK_BYTES, null)) > 0) feed(buffer.subarray(0, read));
    try {
      splitter.end();
    } catch {
      throw bad('truncated');
    }
    return reader.result();
  } finally {
    closeSync(fd);
  }
}

/** Builds the state from the elements of a format-2 file, one at a time. */
class StateReader {
  private header: { activeId: string; activationCount: number; nextConfigId: number } | undefined;
  private readonly defaults = new Map<ResourceType, Readonly<JsonObject>>();
  private readonly objects: StoredObject[] = [];
  private readonly entries: ConfigurationEntry[] = [];

  constructor(
    private readonly variant: Variant,
    private readonly bad: Bad,
  ) {}

  element(raw: unknown): void {
    if (!isJsonObject(raw)) throw this.bad('an element is not an object');
    if (isJsonObject(raw.header)) this.readHeader(raw.header);
    else if (!this.header) throw this.bad('the header is not first');
    else if (isJsonObject(raw.defaults)) this.readDefaults(raw.defaults);
    else if (isJsonObject(raw.object)) this.objects.push(this.readObject(raw.object));
    else if (isJsonObject(raw.entry)) this.entries.push(this.readEntry(raw.entry));
    else throw this.bad('an element is neither header, defaults, object nor entry');
  }

  result(): StoredState {
    const header = this.header;
    if (!header) throw this.bad('no header');
    if (!this.entries.some((e) => e.id === header.activeId)) throw this.bad('the active configuration is missing');
    return { entries: this.entries, ...header };
  }

  private readHeader(header: JsonObject): void {
    const { variant, activeId, activationCount, nextConfigId } = header;
    if (variant !== this.variant) {
      throw this.bad(`it holds a ${shown(variant)} variant gateway's configurations; start with --variant ${shown(variant)} or use another state file`);
    }
    if (typeof activeId !== 'string') throw this.bad('missing activeId');
    this.header = { activeId, activationCount: Number(activationCount ?? 0), nextConfigId: Number(nextConfigId ?? 1) };
  }

  /** The file's defaults of a kind: the emulator's own tree when equal (shared with new objects), else the file's, shared among its objects. */
  private readDefaults(raw: JsonObject): void {
    const { type, attributes } = raw;
    if (!isResourceType(type) || !isJsonObject(attributes)) throw this.bad('defaults lack type or attributes');
    const current = defaultAttributes(type, this.variant);
    this.defaults.set(type, isDeepStrictEqual(current, attributes) ? current : shareTree(attributes));
  }

  private readObject(raw: JsonObject): StoredObject {
    const obj = toStoredObject(raw, this.bad);
    const base = this.defaults.get(obj.type);
    if (!base) throw this.bad(`an object of type ${obj.type} comes without its defaults`);
    const absent = Array.isArray(raw.absent) ? raw.absent.filter((p): p is string[] => Array.isArray(p) && p.every((k) => typeof k === 'string')) : [];
    return { ...obj, attributes: rebuilt(base, obj.attributes, absent) };
  }

  private readEntry(raw: JsonObject): ConfigurationEntry {
    const content = emptyContent();
    content.nextId = Number(raw.nextId);
    if (!Array.isArray(raw.objects)) throw this.bad(`configuration ${shown(raw.id)} has no objects`);
    for (const i of raw.objects) {
      const obj = typeof i === 'number' ? this.objects[i] : undefined;
      if (!obj) throw this.bad(`configuration ${shown(raw.id)} names a missing object`);
      content.objects[obj.type].set(obj.id, obj);
    }
    return {
      id: shown(raw.id),
      origin: raw.origin as ConfigurationOrigin,
      comment: typeof raw.comment === 'string' ? raw.comment : undefined,
      createdAt: shown(raw.createdAt),
      createdBy: shown(raw.createdBy),
      content,
    };
  }
}

/** A format-1 state file: the whole state as one JSON object, objects with full attributes. */
function parseVersion1(text: string, variant: Variant, bad: Bad): StoredState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (!isJsonObject(raw)) throw bad('not an object');
  const state = raw as { variant?: unknown; activeId?: unknown; activationCount?: unknown; nextConfigId?: unknown; objects?: unknown; entries?: unknown };
  if (state.variant !== undefined && state.variant !== variant) {
    throw bad(`it holds a ${shown(state.variant)} variant gateway's configurations; start with --variant ${shown(state.variant)} or use another state file`);
  }
  if (!Array.isArray(state.objects) || !Array.isArray(state.entries) || typeof state.activeId !== 'string') {
    throw bad('missing objects, entries or activeId');
  }
  const objects: StoredObject[] = state.objects.map((o: unknown) => toStoredObject(o, bad));
  const entries = (state.entries as { id: unknown; origin: ConfigurationOrigin; comment?: string; createdAt: string; createdBy: string; nextId: unknown; objects: number[] }[]).map(
    (e): ConfigurationEntry => {
      const content = emptyContent();
      content.nextId = Number(e.nextId);
      for (const i of e.objects) {
        const obj = objects[i];
        if (!obj) throw bad(`configuration ${shown(e.id)} names a missing object`);
        content.objects[obj.type].set(obj.id, obj);
      }
      return { id: shown(e.id), origin: e.origin, comment: e.comment, createdAt: e.createdAt, createdBy: e.createdBy, content };
    },
  );
  if (!entries.some((e) => e.id === state.activeId)) throw bad('the active configuration is missing');
  return {
    entries,
    activeId: state.activeId,
    activationCount: Number(state.activationCount ?? 0),
    nextConfigId: Number(state.nextConfigId ?? entries.length + 1),
  };
}

/**
 * Stored configurations: the active one, saved ones, previously active ones and the initial
 * one (docs/gateway-api.md "Configurations and activation"), optionally persisted to a
 * state file.
 *
 * The state file is written atomically (temp file in the same directory, fsync, rename,
 * fsync of the directory), so a crash mid-write leaves the previous file intact. Objects
 * shared between configurations (copy-on-write) are written once.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../errors.js';
import { isResourceType } from '../kinds/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import type { ConfigContent, DenyRuleUsage, JsonObject, StoredObject } from './model.js';
import { emptyContent } from './model.js';

/** How a configuration came to exist. */
export type ConfigurationOrigin = 'INITIAL' | 'SAVED' | 'ACTIVATED';

/** `configType` as the API reports it. */
export type ConfigType = 'CURRENTLY_ACTIVE' | 'INITIAL' | 'SAVED' | 'PREVIOUSLY_ACTIVE';

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

/** The user name that owns the initial configuration. */
const SYSTEM_USER = 'system';

const STATE_FORMAT_VERSION = 1;

interface StateFile {
  formatVersion: number;
  /** The gateway variant that wrote it (attributes differ between variants). */
  variant?: Variant;
  activeId: string;
  activationCount: number;
  nextConfigId: number;
  objects: StoredObject[];
  entries: {
    id: string;
    origin: ConfigurationOrigin;
    comment?: string;
    createdAt: string;
    createdBy: string;
    nextId: number;
    /** Indices into `objects`. */
    objects: number[];
  }[];
}

/** The stored configurations and which one is active. */
export class ConfigurationStore {
  private readonly entries = new Map<string, ConfigurationEntry>();
  private activeId: string;
  private nextConfigId: number;
  /** Incremented by every activation: a session loaded before the latest one is outdated. */
  private activations: number;

  private constructor(
    private readonly stateFile: string | undefined,
    private readonly variant: Variant,
    state: { entries: ConfigurationEntry[]; activeId: string; activationCount: number; nextConfigId: number },
  ) {
    for (const e of state.entries) this.entries.set(e.id, e);
    this.activeId = state.activeId;
    this.activations = state.activationCount;
    this.nextConfigId = state.nextConfigId;
  }

  /**
   * Opens the store: from `stateFile` when it exists, else with one INITIAL configuration
   * that is active, holding `seed()` (empty by default; the emulator's built-ins), written
   * to `stateFile` at once when one is given.
   * @throws ConfigError when the state file exists but cannot be read, is not a state file, or
   * was written by another gateway variant (whose attributes differ).
   */
  static open(stateFile: string | undefined, variant: Variant, now: Date = new Date(), seed: () => ConfigContent = emptyContent): ConfigurationStore {
    if (stateFile !== undefined) {
      let text: string | undefined;
      try {
        text = readFileSync(stateFile, 'utf8');
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENOENT') {
          throw new ConfigError(`cannot read emulator state file ${stateFile}`, { cause: error });
        }
      }
      if (text !== undefined) return new ConfigurationStore(stateFile, variant, parseState(text, stateFile, variant));
    }
    const initial: ConfigurationEntry = {
      id: '1',
      origin: 'INITIAL',
      comment: 'Initial configuration',
      createdAt: now.toISOString(),
      createdBy: SYSTEM_USER,
      content: seed(),
    };
    const store = new ConfigurationStore(stateFile, variant, { entries: [initial], activeId: '1', activationCount: 0, nextConfigId: 2 });
    store.persist();
    return store;
  }

  /** All configurations, newest first. */
  list(): ConfigurationEntry[] {
    return [...this.entries.values()].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || Number(b.id) - Number(a.id),
    );
  }

  /** The configuration with this id, or undefined. */
  get(id: string): ConfigurationEntry | undefined {
    return this.entries.get(id);
  }

  /** The active configuration. */
  active(): ConfigurationEntry {
    const entry = this.entries.get(this.activeId);
    if (!entry) throw new Error('the active configuration is missing');
    return entry;
  }

  /** The number of activations so far (compared with a session's value at load time). */
  activationCount(): number {
    return this.activations;
  }

  /** The `configType` the API reports for an entry. */
  configType(entry: ConfigurationEntry): ConfigType {
    if (entry.id === this.activeId) return 'CURRENTLY_ACTIVE';
    switch (entry.origin) {
      case 'INITIAL':
        return 'INITIAL';
      case 'SAVED':
        return 'SAVED';
      case 'ACTIVATED':
        return 'PREVIOUSLY_ACTIVE';
    }
  }

  /** Stores `content` (which the caller must no longer edit) as a new SAVED configuration. */
  save(content: ConfigContent, comment: string | undefined, createdBy: string): ConfigurationEntry {
    const entry = this.add('SAVED', content, comment, createdBy);
    this.persistOrUndo(() => {
      this.entries.delete(entry.id);
    });
    return entry;
  }

  /** Stores `content` (which the caller must no longer edit) as a new configuration and makes it active. */
  activate(content: ConfigContent, comment: string | undefined, createdBy: string): ConfigurationEntry {
    const entry = this.add('ACTIVATED', content, comment, createdBy);
    const previous = this.activeId;
    this.activeId = entry.id;
    this.activations += 1;
    this.persistOrUndo(() => {
      this.entries.delete(entry.id);
      this.activeId = previous;
      this.activations -= 1;
    });
    return entry;
  }

  /**
   * Deletes a stored configuration.
   * @returns 'deleted', 'not-found', or 'active' (the active configuration cannot be deleted)
   */
  delete(id: string): 'deleted' | 'not-found' | 'active' {
    if (!this.entries.has(id)) return 'not-found';
    if (id === this.activeId) return 'active';
    const entry = this.entries.get(id);
    this.entries.delete(id);
    this.persistOrUndo(() => {
      if (entry) this.entries.set(id, entry);
    });
    return 'deleted';
  }

  private add(origin: ConfigurationOrigin, content: ConfigContent, comment: string | undefined, createdBy: string): ConfigurationEntry {
    const id = String(this.nextConfigId++);
    // createdAt strictly increases, so "newest first" is well defined even within one millisecond.
    let created = Date.now();
    for (const e of this.entries.values()) created = Math.max(created, Date.parse(e.createdAt) + 1);
    const entry: ConfigurationEntry = { id, origin, comment, createdAt: new Date(created).toISOString(), createdBy, content };
    this.entries.set(id, entry);
    return entry;
  }

  /**
   * Persists a change just made in memory; when writing fails, `undo` reverts it so memory and
   * file agree, and the error is rethrown.
   */
  private persistOrUndo(undo: () => void): void {
    try {
      this.persist();
    } catch (error) {
      undo();
      throw error;
    }
  }

  /** Writes the state file atomically (no-op without one). */
  private persist(): void {
    if (this.stateFile === undefined) return;
    writeAtomically(this.stateFile, serialise(this.variant, this.entries, this.activeId, this.activations, this.nextConfigId));
  }
}

function serialise(
  variant: Variant,
  entries: ReadonlyMap<string, ConfigurationEntry>,
  activeId: string,
  activationCount: number,
  nextConfigId: number,
): string {
  const index = new Map<StoredObject, number>();
  const objects: StoredObject[] = [];
  const state: StateFile = { formatVersion: STATE_FORMAT_VERSION, variant, activeId, activationCount, nextConfigId, objects, entries: [] };
  for (const e of entries.values()) {
    const refs: number[] = [];
    for (const map of Object.values(e.content.objects)) {
      for (const obj of map.values()) {
        let i = index.get(obj);
        if (i === undefined) {
          i = objects.length;
          objects.push(obj);
          index.set(obj, i);
        }
        refs.push(i);
      }
    }
    state.entries.push({
      id: e.id,
      origin: e.origin,
      ...(e.comment === undefined ? {} : { comment: e.comment }),
      createdAt: e.createdAt,
      createdBy: e.createdBy,
      nextId: e.content.nextId,
      objects: refs,
    });
  }
  return JSON.stringify(state);
}

function parseState(
  text: string,
  file: string,
  variant: Variant,
): { entries: ConfigurationEntry[]; activeId: string; activationCount: number; nextConfigId: number } {
  const bad = (why: string): ConfigError => new ConfigError(`emulator state file ${file} is not usable: ${why}`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (typeof raw !== 'object' || raw === null) throw bad('not an object');
  const state = raw as Partial<StateFile>;
  if (state.formatVersion !== STATE_FORMAT_VERSION) throw bad(`unknown formatVersion ${String(state.formatVersion)}`);
  if (state.variant !== undefined && state.variant !== variant) {
    throw bad(`it holds a ${state.variant} variant gateway's configurations; start with --variant ${state.variant} or use another state file`);
  }
  if (!Array.isArray(state.objects) || !Array.isArray(state.entries) || typeof state.activeId !== 'string') {
    throw bad('missing objects, entries or activeId');
  }
  const objects: StoredObject[] = state.objects.map((o: unknown) => toStoredObject(o, bad));
  const entries = state.entries.map((e): ConfigurationEntry => {
    const content = emptyContent();
    content.nextId = Number(e.nextId);
    for (const i of e.objects) {
      const obj = objects[i];
      if (!obj) throw bad(`configuration ${e.id} names a missing object`);
      content.objects[obj.type].set(obj.id, obj);
    }
    return { id: String(e.id), origin: e.origin, comment: e.comment, createdAt: e.createdAt, createdBy: e.createdBy, content };
  });
  if (!entries.some((e) => e.id === state.activeId)) throw bad('the active configuration is missing');
  return {
    entries,
    activeId: state.activeId,
    activationCount: Number(state.activationCount ?? 0),
    nextConfigId: Number(state.nextConfigId ?? entries.length + 1),
  };
}

/** One configuration's content as plain JSON (the form inside export archives). */
export interface EncodedContent {
  nextId: number;
  objects: StoredObject[];
}

/** Encodes a content as plain JSON. */
export function encodeContent(content: ConfigContent): EncodedContent {
  const objects: StoredObject[] = [];
  for (const map of Object.values(content.objects)) for (const obj of map.values()) objects.push(obj);
  return { nextId: content.nextId, objects };
}

/**
 * Decodes {@link encodeContent}'s output.
 * @throws the error `bad` builds when the value is not an encoded content.
 */
export function decodeContent(raw: unknown, bad: (why: string) => Error): ConfigContent {
  if (typeof raw !== 'object' || raw === null) throw bad('not an object');
  const { nextId, objects } = raw as { nextId?: unknown; objects?: unknown };
  if (!Array.isArray(objects)) throw bad('no objects');
  const content = emptyContent();
  let maxId = 0;
  for (const o of objects) {
    const obj = toStoredObject(o, bad);
    content.objects[obj.type].set(obj.id, obj);
    maxId = Math.max(maxId, Number(obj.id) || 0);
  }
  content.nextId = Math.max(typeof nextId === 'number' && Number.isSafeInteger(nextId) ? nextId : 1, maxId + 1);
  return content;
}

function toStoredObject(o: unknown, bad: (why: string) => Error): StoredObject {
  if (typeof o !== 'object' || o === null) throw bad('an object is not an object');
  const { type, id, attributes, relationships, denyRuleUsage } = o as Record<string, unknown>;
  if (!isResourceType(type) || typeof id !== 'string' || typeof attributes !== 'object' || attributes === null) {
    throw bad('an object lacks type, id or attributes');
  }
  const rels: Record<string, readonly string[]> = {};
  if (typeof relationships === 'object' && relationships !== null) {
    for (const [name, ids] of Object.entries(relationships)) {
      if (Array.isArray(ids)) rels[name] = ids.map(String);
    }
  }
  const usage = denyRuleUsageOf(denyRuleUsage);
  return { type: type satisfies ResourceType, id, attributes: attributes as JsonObject, relationships: rels, ...(usage ? { denyRuleUsage: usage } : {}) };
}

/** The `denyRuleUsage` entries of an encoded object that hold two booleans; undefined when none do. */
function denyRuleUsageOf(raw: unknown): Record<string, DenyRuleUsage> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const entries = Object.entries(raw as Record<string, unknown>).filter((e): e is [string, DenyRuleUsage] => {
    const usage = e[1] as Partial<Record<keyof DenyRuleUsage, unknown>> | null;
    return typeof usage === 'object' && usage !== null && typeof usage.enabled === 'boolean' && typeof usage.logOnly === 'boolean';
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries.map(([k, u]) => [k, { enabled: u.enabled, logOnly: u.logOnly }]));
}

/**
 * Writes `text` to `file` so that the file holds either the old or the new text, never a
 * mix: temp file in the same directory (mode 0600), fsync, rename over, fsync of the directory.
 */
export function writeAtomically(file: string, text: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, text);
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

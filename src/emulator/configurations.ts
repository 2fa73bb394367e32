/**
 * Stored configurations: the active one, saved ones, previously active ones and the initial
 * one (docs/gateway-api.md "Configurations and activation"), optionally persisted to a
 * state file.
 *
 * The state file (its format and the atomic write: state-file.ts) is written whole after
 * every change, so a crash mid-write leaves the previous file intact.
 */
import { ConfigError } from '../core/errors.js';
import type { Variant } from '../kinds/index.js';
import type { ConfigContent, StoredObject } from './model.js';
import { emptyContent } from './model.js';
import type { ConfigurationEntry, ConfigurationOrigin, StoredState } from './state-file.js';
import { readState, writeState } from './state-file.js';

export type { ConfigurationEntry, ConfigurationOrigin } from './state-file.js';

/** `configType` as the API reports it. */
export type ConfigType = 'CURRENTLY_ACTIVE' | 'INITIAL' | 'SAVED' | 'PREVIOUSLY_ACTIVE';

/** The user name that owns the initial configuration. */
const SYSTEM_USER = 'system';

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
    state: StoredState,
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
      let state: StoredState | undefined;
      try {
        state = readState(stateFile, variant, (why) => new ConfigError(`emulator state file ${stateFile} is not usable: ${why}`));
      } catch (error) {
        if (error instanceof ConfigError) throw error;
        throw new ConfigError(`cannot read emulator state file ${stateFile}`, { cause: error });
      }
      if (state !== undefined) return new ConfigurationStore(stateFile, variant, state);
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

  /** Writes the state file atomically, piece by piece (no-op without one). */
  private persist(): void {
    if (this.stateFile === undefined) return;
    writeState(this.stateFile, this.variant, {
      entries: [...this.entries.values()],
      activeId: this.activeId,
      activationCount: this.activations,
      nextConfigId: this.nextConfigId,
    });
  }
}

/** One configuration's content as plain JSON (the form inside export archives, written and read by content-json.ts). */
export interface EncodedContent {
  nextId: number;
  objects: StoredObject[];
}

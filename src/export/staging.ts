/**
 * Creating the files of a per-object export while the lists are still being read.
 *
 * Creating a file costs the file system far more than writing a manifest into it (an inode
 * is allocated, and the folder is locked for each), and it costs that for every exported
 * object; reading the lists keeps one core busy parsing and leaves the other mostly idle.
 * So, as each object of a kind named by its name arrives, the file its manifest will most
 * likely be written to is created empty, in the thread pool, in a hidden staging folder of
 * the output directory. When the manifests are written (src/export/write.ts), the staged
 * folder of a kind becomes that kind's folder (one rename), the manifests are written into
 * the files already there, and the staged files no manifest took are removed.
 *
 * A staged file is a guess: whatever the guess, the written files are exactly those the
 * manifests name. Only kinds whose folder does not exist yet are staged; a file that cannot
 * be created is simply not staged (writing it reports the problem); and the staging folder is
 * removed whatever happens ({@link ManifestStaging.discard}).
 */
import { lstat, mkdir, mkdtemp, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { ResourceType } from '../kinds/index.js';
import { kindOf } from '../kinds/index.js';
import { escapeFileName } from './names.js';

/** Files created at once: two keep the thread pool busy while the main thread parses, more only contend for the folder. */
const CREATES_IN_FLIGHT = 2;

/** The prefix of the staging folder's name (a hidden folder in the output directory). */
export const STAGING_PREFIX = '.gwops-export-';

/** Whether `path` exists (anything, symbolic links not followed). */
async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** See the module comment. */
export class ManifestStaging {
  /** Files to create, relative to the staging folder (`<kind>/<file>.yaml`), and the next one to take. */
  private readonly queue: string[] = [];
  private next = 0;
  /** The kind folders made in the staging folder, and the files created in them (relative paths as queued). */
  private readonly folders = new Set<string>();
  private readonly created = new Set<string>();
  /** Files published into the output directory (relative to it) and not yet taken by a manifest. */
  private readonly published = new Set<string>();
  /** The creating loops started, and how many of them still run. */
  private running: Promise<void>[] = [];
  private active = 0;
  private stopped = false;

  private constructor(
    /** The output directory. */
    private readonly dir: string,
    /** The staging folder, in `dir`. */
    private readonly root: string,
    /** The kinds that may be staged: their folder did not exist. */
    private readonly kinds: ReadonlySet<ResourceType>,
    /** The first directory made to hold `dir` (it did not exist), removed by {@link discard} when left empty. */
    private readonly madeDir: string | undefined,
  ) {}

  /**
   * Starts staging the files of `kinds` in `dir` (made when missing), for the kinds whose
   * folder `dir/<kind>` does not exist; undefined when there is none, or when the staging
   * folder cannot be made (writing the manifests then reports whatever is wrong).
   */
  static async start(dir: string, kinds: readonly ResourceType[]): Promise<ManifestStaging | undefined> {
    try {
      const madeDir = await mkdir(dir, { recursive: true });
      const missing: ResourceType[] = [];
      for (const kind of kinds) if (kindOf(kind).identity.byName && !(await exists(join(dir, kind)))) missing.push(kind);
      if (missing.length === 0) {
        if (madeDir !== undefined) await removeEmptyUpTo(dir, madeDir);
        return undefined;
      }
      const root = await mkdtemp(join(dir, STAGING_PREFIX));
      return new ManifestStaging(dir, root, new Set(missing), madeDir);
    } catch {
      return undefined;
    }
  }

  /** Stages the file of the object of `kind` whose live attributes are `attributes` (named by its name), when its kind is staged. */
  add(kind: ResourceType, attributes: Readonly<Record<string, unknown>>): void {
    if (this.stopped || !this.kinds.has(kind)) return;
    const name = kindOf(kind).identity.live(attributes, () => undefined).name;
    if (name === undefined) return;
    this.queue.push(join(kind, `${escapeFileName(name)}.yaml`));
    if (this.active < CREATES_IN_FLIGHT) {
      this.active += 1;
      this.running.push(this.pump().finally(() => (this.active -= 1)));
    }
  }

  /** Creates the queued files one after the other; never rejects (a file that cannot be created is not staged). */
  private async pump(): Promise<void> {
    while (this.next < this.queue.length && !this.stopped) {
      const path = this.queue[this.next++] as string;
      const folder = dirname(path);
      try {
        if (!this.folders.has(folder)) {
          this.folders.add(folder);
          await mkdir(join(this.root, folder), { recursive: true });
        }
        await writeFile(join(this.root, path), '', { flag: 'wx' });
        this.created.add(path);
      } catch {
        // Not staged: the manifest is written as if there were no staging.
      }
    }
  }

  /**
   * Stops staging and moves the staged folder of each of `kinds` into the output directory,
   * as `dir/<kind>`, unless a folder is there by now; afterwards the manifests are written
   * into the files there ({@link take} each), and {@link discard} removes those no manifest took.
   */
  async publish(kinds: ReadonlySet<string>): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
    for (const folder of this.folders) {
      if (!kinds.has(folder) || (await exists(join(this.dir, folder)))) continue;
      try {
        await rename(join(this.root, folder), join(this.dir, folder));
      } catch {
        continue;
      }
      for (const path of this.created) if (path.startsWith(`${folder}${sep}`)) this.published.add(path);
    }
  }

  /** Notes that the manifest at `path` (relative to the output directory) was written: its staged file, if any, is kept. */
  take(path: string): void {
    this.published.delete(path);
  }

  /**
   * Removes what is left of the staging: the published files no manifest took, the staging
   * folder, and the output directory when staging made it and nothing else was written there.
   * Never throws.
   */
  async discard(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
    for (const path of this.published) await unlink(join(this.dir, path)).catch(() => undefined);
    this.published.clear();
    await rm(this.root, { recursive: true, force: true }).catch(() => undefined);
    if (this.madeDir !== undefined) await removeEmptyUpTo(this.dir, this.madeDir);
  }
}

/** Removes `dir` and its parents up to `top` (included) while they are empty. */
async function removeEmptyUpTo(dir: string, top: string): Promise<void> {
  for (let at = dir; ; at = dirname(at)) {
    if (relative(top, at).startsWith('..')) return;
    try {
      await rmdir(at);
    } catch {
      return;
    }
    if (at === top) return;
  }
}

/**
 * The backup of `apply --backup-dir`: the export of the active configuration, taken in the
 * session before the first edit (src/operations/apply.ts `backup`), written for its owner
 * only, never over another backup.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { errnoCode, errnoWords } from '../../core/files.js';
import type { ConfigurationEntry } from '../../gateway/index.js';
import { writeProblem } from '../../core/out-paths.js';

/**
 * `--backup-dir`: creates the directory when missing and checks, before anything is sent
 * to a gateway, that it is a writable directory.
 * @returns the absolute path
 * @throws ConfigError naming the option and what is wrong
 */
export async function backupDirectory(cwd: string, dir: string, option: string): Promise<string> {
  const full = resolve(cwd, dir);
  const problem = await writeProblem(full, 'directory');
  if (problem !== undefined) throw new ConfigError(`${option} ${dir}: ${problem}`);
  await mkdir(full, { recursive: true }).catch((error: unknown) => {
    throw new ConfigError(`${option} ${dir}: cannot create the directory ${full}: ${errnoWords(error)}`);
  });
  if (!(await stat(full).catch(() => undefined))?.isDirectory()) throw new ConfigError(`${option} ${dir} is not a directory`);
  await access(full, constants.W_OK).catch((error: unknown) => {
    throw new ConfigError(`${option} ${dir}: the directory ${full} is not writable: ${errnoWords(error)}`);
  });
  return full;
}

/** A UTC time as in backup file names: `20261123T141500Z`. */
export function compactUtc(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
}

/** How many names `backupTo` tries for one backup before it gives up (same gateway, id and second). */
const MAX_BACKUP_NAMES = 100;

/**
 * The `backup` hook of apply for `--backup-dir`: writes the export of the active
 * configuration (which holds every private key and secret of it) for its owner only (mode
 * 0600) to `<dir>/<configuration-id>-<UTC time>-<gateway>.zip`, where `<gateway>` is the
 * first 8 hex digits of the SHA-256 of the gateway's URL (backups of two gateways never
 * collide), with `-2`, `-3`, … added when that name exists; `tell` is told where it went.
 * `now` gives the time of the name.
 * @throws ConfigError when the backup cannot be written (nothing was changed then)
 */
export function backupWriter(dir: string, now: () => Date, tell: (message: string) => void): (archive: Buffer, active: ConfigurationEntry | undefined, gatewayUrl: string) => Promise<void> {
  return async (archive, active, gatewayUrl) => {
    const id = (active?.id ?? 'active').replace(/[^A-Za-z0-9._-]/g, '_');
    const stem = `${id}-${compactUtc(now())}-${createHash('sha256').update(gatewayUrl).digest('hex').slice(0, 8)}`;
    for (let n = 1; ; n += 1) {
      const file = join(dir, `${stem}${n === 1 ? '' : `-${n}`}.zip`);
      const written = await writeFile(file, archive, { flag: 'wx', mode: 0o600 }).then(
        () => true,
        (error: unknown) => {
          if (errnoCode(error) === 'EEXIST' && n < MAX_BACKUP_NAMES) return false;
          throw new ConfigError(`cannot write the backup ${file}: ${errnoWords(error)}; nothing was changed`, { cause: error });
        },
      );
      if (!written) continue;
      tell(`Backup of the active configuration${active ? ` ${active.id}` : ''} written to ${file} (${archive.length} bytes).`);
      return;
    }
  };
}

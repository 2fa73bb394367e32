/** Reading a folder whole, to compare it before and after a run. */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Every file under `dir` (hidden ones included) with its text, by path relative to `dir`. */
export async function fileTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out[relative(dir, full)] = await readFile(full, 'utf8');
    }
  };
  await walk(dir);
  return out;
}

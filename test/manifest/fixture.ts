import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Writes `files` (relative path → text) into a fresh temporary directory and returns it. */
export function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gwops-manifest-test-'));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return dir;
}

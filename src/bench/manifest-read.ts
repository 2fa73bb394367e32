/**
 * The bare client's reading of the desired state beside `gwops plan` and `gwops drift` in
 * the scale bench (src/bench/probe.ts): every `.yaml` file of a manifest directory read
 * and parsed with `js-yaml`, values only. No checks, positions, variables or references:
 * the least reading the manifests needs, so that the ratio is gwops's overhead over work
 * that any client comparing them with the gateway must do.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import { FILE_LIMITS, readTextBounded } from '../files.js';

/** Parses every `.yaml` file directly in `dir`; returns the number of documents read. */
export async function readManifestValues(dir: string): Promise<number> {
  let documents = 0;
  for (const entry of (await readdir(dir)).filter((name) => name.endsWith('.yaml')).sort()) {
    documents += yaml.loadAll(readTextBounded(path.join(dir, entry), FILE_LIMITS.manifest)).length;
  }
  return documents;
}

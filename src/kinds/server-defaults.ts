/**
 * The default attribute trees recorded from a real gateway, `server-defaults/<file>` (a
 * kind's emulator hooks name its file in `defaults.recorded`; docs/gateway-api.md
 * "Attributes and server defaults"). Read once per file, for the emulator (which fills new
 * objects with them) and for `gwops export` (which leaves them out).
 *
 * Read with `js-yaml`'s core schema, not the `yaml` package: the first parse of the `yaml`
 * package in a process costs about 0.4 s (its parser is cold), `js-yaml` reads the file in
 * a few ms; a test checks both read every recorded file to the same values.
 */
// Reads only files of the gwops package itself, never a path a user gives; src/kinds imports
// nothing outside src/kinds, so it does not use the bounded reader of src/core/files.ts.
// eslint-disable-next-line no-restricted-syntax
import { readFileSync } from 'node:fs';
import jsYaml from 'js-yaml';
import type { JsonObject } from './emulator-hooks.js';

const recorded = new Map<string, Readonly<JsonObject>>();

/**
 * The recorded default tree in `server-defaults/<file>`, parsed once. Callers must not
 * change it (copy it first).
 * @throws Error when the file is missing or not a mapping of attributes (a packaging error)
 */
export function recordedDefaults(file: string): Readonly<JsonObject> {
  let tree = recorded.get(file);
  if (!tree) {
    const parsed: unknown = jsYaml.load(readFileSync(new URL(`../../server-defaults/${file}`, import.meta.url), 'utf8'), { schema: jsYaml.CORE_SCHEMA });
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(`server-defaults/${file} is not a mapping of attributes`);
    }
    tree = parsed as JsonObject;
    recorded.set(file, tree);
  }
  return tree;
}

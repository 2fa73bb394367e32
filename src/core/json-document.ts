/**
 * The one serialiser of every JSON document gwops writes: `plan`, `apply` and `drift`
 * with `--format json`, the plan file of `plan --out`, `validate --format json` and the
 * failure documents of every command (the diagnostics document), `history`, `targets`,
 * `export` and the `rollback` preview. Each document starts with its `formatVersion`, the
 * version of its shape, raised on any incompatible change (README "Output contract").
 * Large documents are written in chunks of the same text (src/render/json-chunks.ts).
 */

/**
 * `body` as one JSON document: `formatVersion` first (a `formatVersion` member of `body`,
 * as the plan's own data carries, gives way to it), then `body`'s members in their order;
 * two-space indentation, a trailing newline.
 * @param formatVersion the version of the document's shape, e.g. `'1.0'`
 */
export function jsonDocument(formatVersion: string, body: Readonly<Record<string, unknown>>): string {
  const { formatVersion: _own, ...members } = body;
  return `${JSON.stringify({ formatVersion, ...members }, null, 2)}\n`;
}

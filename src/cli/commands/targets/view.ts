/**
 * The view of `gwops targets`, chosen once from `--format`: a table of name, URL and
 * variant (text; nothing for no targets), or one JSON document `{ formatVersion, targets }`
 * for a CI matrix.
 */
import { jsonDocument } from '../../../core/json-document.js';
import { renderTable } from '../../../render/table.js';
import type { CliIO } from '../../io.js';
import type { TargetSummary } from '../../../operations/targets.js';

/** Version of the document of `targets --format json` (src/core/json-document.ts). */
export const TARGETS_FORMAT_VERSION = '1.0';

/** The view of `gwops targets`. */
export interface TargetsView {
  /** The targets of the project file, in file order. */
  targets(targets: readonly TargetSummary[]): void;
}

/** The view of `gwops targets` in `format`. */
export function targetsView(format: 'text' | 'json', io: CliIO): TargetsView {
  switch (format) {
    case 'json':
      return { targets: (targets) => void io.stdout.write(jsonDocument(TARGETS_FORMAT_VERSION, { targets })) };
    case 'text':
      return {
        targets(targets) {
          if (targets.length > 0) io.stdout.write(renderTable([['NAME', 'URL', 'VARIANT'], ...targets.map((t) => [t.name, t.url, t.variant])]));
        },
      };
  }
}

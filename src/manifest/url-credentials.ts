/**
 * Refuses a user name or password in an attribute that holds a URL the gateway connects to
 * (schema mark `x-gwops-url`, e.g. a remote JSON web key set's `url`), as gwops refuses them
 * in the gateway's URL and in `{ fromJwks }` (docs/manifest-reference.md "URLs with
 * credentials"): plans, reports and exports would show them. The message shows the URL
 * without them; the values go to the run's redactor all the same.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { urlCredentials, withoutCredentials } from '../core/secrets.js';
import { hasUrlCredentials, urlValues } from '../schema/urls.js';
import { entryDiagnostic, labelOf } from './entries.js';
import type { Resolved } from './rules.js';

/**
 * Pushes to `out` an error (`url-credentials`, at the value) for each URL attribute of the
 * resolved documents that holds a user name or password, and those to `secretValues`.
 */
export function checkUrlCredentials(resolved: readonly Resolved[], out: Diagnostic[], secretValues: string[]): void {
  for (const { doc, entry } of resolved) {
    for (const { segments, value } of urlValues(doc.kind, doc.attributes)) {
      if (!hasUrlCredentials(value)) continue;
      secretValues.push(...urlCredentials(value));
      out.push(
        entryDiagnostic(entry, {
          code: 'url-credentials',
          pointer: ['attributes', ...segments],
          message:
            `'${segments.join('.')}' of ${labelOf(doc.kind, doc.name)} is ${withoutCredentials(value)} with a user name or password (not shown): ` +
            'gwops never writes credentials in a URL, where plans, reports and exports would show them; remove them, and let the server authenticate the gateway otherwise (e.g. a client certificate)',
        }),
      );
    }
  }
}

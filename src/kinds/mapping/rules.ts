/**
 * What is special about mapping manifests: the regular expression of a regex entry path
 * must compile, priorities of regex mappings are unique (docs/gateway-api.md "Attributes
 * and server defaults"), and a JWS key is a secret only for HMAC algorithms.
 */
import type { KindAttributes, ManifestRules, RuleDocument } from '../kind.js';
import { valueAt } from '../values.js';

const PRIORITY = ['attributes', 'entryPath', 'priority'];

export const rules: ManifestRules = (documents, context) => {
  const priorities = new Map<number, RuleDocument>();
  for (const doc of documents) {
    const label = context.label(doc);
    const regex = valueAt(doc.attributes, 'entryPath', 'regexFormatEnforced') === true;
    const value = valueAt(doc.attributes, 'entryPath', 'value');
    if (regex && typeof value === 'string') {
      const problem = context.regexProblem(value);
      if (problem !== undefined) {
        context.report(doc, {
          code: 'invalid-regex',
          pointer: ['attributes', 'entryPath', 'value'],
          message: `invalid regular expression in 'entryPath.value' of ${label} (regexFormatEnforced is true): ${problem}`,
        });
      }
    }
    const priority = valueAt(doc.attributes, 'entryPath', 'priority');
    if (regex && typeof priority === 'number') {
      const first = priorities.get(priority);
      if (first) {
        context.report(doc, {
          code: 'duplicate-priority',
          pointer: PRIORITY,
          message: `regex ${label} has entryPath.priority ${priority}, already used by regex mapping '${first.name}' (${context.where(first, PRIORITY)}): priorities of regex mappings must be unique`,
        });
      } else {
        priorities.set(priority, doc);
      }
    }
  }
};

/** `access.tokenVerification.jwsKey` holds a secret only for HMAC algorithms (`HS_*`); otherwise it is a public key. */
export function holdsSecret(path: readonly string[], attributes: KindAttributes): boolean {
  if (path.join('.') !== 'access.tokenVerification.jwsKey') return true;
  const algorithm = valueAt(attributes, 'access', 'tokenVerification', 'jwsAlgorithm');
  return typeof algorithm === 'string' && algorithm.startsWith('HS_');
}

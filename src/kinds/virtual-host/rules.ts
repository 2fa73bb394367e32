/**
 * What is special about virtual host manifests: HTTP/2 needs HTTPS, `tls.certificateMode`
 * needs its link, and a to-one link (`ssl-certificate`, `acme-service`) declared from both
 * sides must name the same object (docs/gateway-api.md "Relationships").
 */
import type { ManifestRuleContext, ManifestRules, RuleDocument } from '../kind.js';
import { valueAt } from '../values.js';
import { relationships } from './relationships.js';

/** The relationship each `tls.certificateMode` needs. */
const MODE_LINK: Readonly<Record<string, keyof typeof relationships>> = {
  CERTIFICATE: 'ssl-certificate',
  ACME_SERVICE: 'acme-service',
};

const TO_ONE = Object.values(relationships).filter((r) => r.cardinality === 'one');

export const rules: ManifestRules = (documents, context) => {
  checkToOneConflicts(context);
  // Virtual host names linked from the other side, per relationship of the virtual host.
  const linkedFrom = new Map<string, Set<string>>();
  for (const def of TO_ONE) {
    const names = new Set<string>();
    for (const other of context.documents(def.target)) for (const name of other.relationships[def.inverse] ?? []) names.add(name);
    linkedFrom.set(def.name, names);
  }
  for (const doc of documents) {
    const label = context.label(doc);
    const https = valueAt(doc.attributes, 'networkInterface', 'https');
    if (valueAt(https, 'http2Allowed') === true && valueAt(https, 'enabled') === false) {
      context.report(doc, {
        code: 'http2-without-https',
        pointer: ['attributes', 'networkInterface', 'https', 'http2Allowed'],
        message: `${label} allows HTTP/2 but HTTPS is disabled: HTTP/2 needs networkInterface.https.enabled: true`,
      });
    }
    const mode = valueAt(doc.attributes, 'tls', 'certificateMode');
    const needs = typeof mode === 'string' && Object.hasOwn(MODE_LINK, mode) ? MODE_LINK[mode] : undefined;
    if (needs && (doc.relationships[needs] ?? []).length === 0 && !linkedFrom.get(needs)?.has(doc.name)) {
      context.report(doc, {
        code: 'certificate-mode-link',
        pointer: ['attributes', 'tls', 'certificateMode'],
        message: `${label} has tls.certificateMode ${String(mode)} but no ${needs} link: add relationships: { ${needs}: <name> }`,
      });
    }
  }
};

/**
 * A virtual host has one `ssl-certificate` and one `acme-service`, whichever side declares
 * the link: every declaration after the first that names another object is a conflict.
 */
function checkToOneConflicts(context: ManifestRuleContext): void {
  type Claim = { target: string; by: RuleDocument; pointer: string[] };
  // virtual host name → relationship → declared targets with where they are declared
  const claims = new Map<string, Map<string, Claim[]>>();
  const claim = (host: string, rel: string, target: string, by: RuleDocument, pointer: string[]): void => {
    let rels = claims.get(host);
    if (!rels) claims.set(host, (rels = new Map<string, Claim[]>()));
    let list = rels.get(rel);
    if (!list) rels.set(rel, (list = []));
    if (!list.some((c) => c.target === target)) list.push({ target, by, pointer });
  };
  // All documents in one pass, so that the first declaration is the first one read.
  for (const doc of context.documents()) {
    if (doc.kind === 'virtual-host') {
      for (const def of TO_ONE) {
        const target = doc.relationships[def.name]?.[0];
        if (target !== undefined) claim(doc.name, def.name, target, doc, ['relationships', def.name]);
      }
      continue;
    }
    for (const def of TO_ONE) {
      if (doc.kind !== def.target) continue;
      (doc.relationships[def.inverse] ?? []).forEach((host, i) => claim(host, def.name, doc.name, doc, ['relationships', def.inverse, String(i)]));
    }
  }
  for (const [host, rels] of claims) {
    for (const [rel, list] of rels) {
      const [first, ...others] = list;
      if (!first) continue;
      for (const other of others) {
        context.report(other.by, {
          code: 'conflicting-link',
          pointer: other.pointer,
          message: `virtual-host '${host}' can link one ${rel} only: '${other.target}' here and '${first.target}' at ${context.where(first.by, first.pointer)}`,
        });
      }
    }
  }
}

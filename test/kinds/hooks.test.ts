/** The registry and the hooks of the kind modules, called the way generic code calls them. */
import { NODE_CERTIFICATES } from '../../src/crypto/node.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { DocumentKind, KindDefinition, ManifestRuleContext, ResourceType, RuleDocument, RuleProblem, TemplateKind } from '../../src/kinds/index.js';
import { KINDS, isResourceType, isTemplateKind, kindOf, kindOfDocument, templateKinds } from '../../src/kinds/index.js';
import { nameIdentity } from '../../src/kinds/identity.js';
import { certificateFingerprint, certificateIdentity } from '../../src/kinds/ssl-certificate/identity.js';
import { joinKey, objectKey, parseObjectKey, splitKey } from '../../src/core/object-key.js';
import { declaredKey, linkKey } from '../../src/engine/model.js';
import { pem } from '../engine/helpers.js';

describe('the registry', () => {
  it('derives ResourceType and TemplateKind from the modules', () => {
    expectTypeOf<ResourceType>().toEqualTypeOf<(typeof KINDS)[number]['type']>();
    expectTypeOf<string>().not.toMatchTypeOf<ResourceType>();
    expectTypeOf<'not-a-kind'>().not.toMatchTypeOf<DocumentKind>();
    expectTypeOf<string>().not.toMatchTypeOf<TemplateKind>();
    expectTypeOf<TemplateKind>().toMatchTypeOf<DocumentKind>();
    for (const kind of KINDS) expect(isResourceType(kind.type)).toBe(true);
    expect(isResourceType('not-a-kind')).toBe(false);
  });

  it('maps a template kind to the kind that names it, and a resource type to itself', () => {
    const withTemplate = KINDS.filter((k): k is KindDefinition & { template: TemplateKind } => k.template !== undefined);
    expect(templateKinds()).toEqual(withTemplate.map((k) => k.template));
    for (const kind of withTemplate) {
      expect(isTemplateKind(kind.template)).toBe(true);
      expect(kindOfDocument(kind.template)).toBe(kind);
    }
    for (const kind of KINDS) {
      expect(isTemplateKind(kind.type)).toBe(false);
      expect(kindOfDocument(kind.type)).toBe(kind);
    }
    expect(() => kindOfDocument('not-a-kind')).toThrow(/unknown document kind/);
  });

  it('gives every relationship a canonical inverse on its target, exactly one side canonical', () => {
    expect(KINDS.flatMap((kind) => Object.values(kind.relationships)).length).toBeGreaterThan(0);
    for (const kind of KINDS) {
      for (const rel of Object.values(kind.relationships)) {
        const inverse = kindOf(rel.target).relationships[rel.inverse];
        expect(inverse, `${kind.type}.${rel.name}`).toBeDefined();
        expect(inverse?.inverse).toBe(rel.name);
        expect(inverse?.target).toBe(kind.type);
        expect(rel.canonical !== inverse?.canonical, `${kind.type}.${rel.name}`).toBe(true);
      }
    }
  });
});

describe('identity hooks', () => {
  it('name identity: the name attribute, looked up by name, compared like any attribute', () => {
    expect(nameIdentity.declared({ name: 'shop' })).toBeUndefined();
    expect(nameIdentity.live({ name: 'shop' }, () => 'other')).toEqual({ name: 'shop' });
    expect(nameIdentity.live({ name: '' }, () => undefined)).toEqual({ name: undefined });
    expect(nameIdentity.lookup('shop', {})).toEqual({ name: 'shop' });
    expect(nameIdentity.ignoredInDiff).toEqual([]);
    expect(nameIdentity.byName).toBe(true);
    expect(KINDS.filter((k) => k.identity.byName).every((k) => k.identity === nameIdentity)).toBe(true);
  });

  it('certificate identity: the fingerprint of the PEM, a handle from the manifests or a display name', () => {
    const fp = certificateFingerprint(pem('main')) ?? '';
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(certificateIdentity.declared({ certificate: pem('main') })).toEqual({ key: fp });
    expect(certificateIdentity.declared({})).toEqual({ problem: 'attributes.certificate must hold a PEM certificate (it is the identity on the gateway)' });
    expect(certificateIdentity.live({ certificate: pem('main') }, (key) => (key === fp ? 'main' : undefined))).toEqual({ name: 'main', key: fp });
    expect(certificateIdentity.live({ certificate: pem('main') }, () => undefined)).toEqual({ name: `sha256:${fp.slice(0, 16)}`, key: fp });
    expect(certificateIdentity.live({}, () => undefined)).toEqual({ name: undefined });
    // A live value that is no PEM still gets a stable key.
    expect(certificateIdentity.live({ certificate: 'garbage' }, () => undefined).key).toMatch(/^[0-9a-f]{64}$/);
    const lookup = certificateIdentity.lookup('main', { certificate: pem('main') });
    expect('matches' in lookup && lookup.matches({ certificate: pem('main') })).toBe(true);
    expect('matches' in lookup && lookup.matches({ certificate: pem('other') })).toBe(false);
    expect(certificateIdentity.ignoredInDiff).toEqual(['certificate']);
    expect(certificateIdentity.deleteWhenOrphaned).toBe(true);
  });
});

describe('secret hooks', () => {
  it('a JWS key holds a secret only for HMAC algorithms', () => {
    const holdsSecret = KINDS.find((k) => k.holdsSecret !== undefined)?.holdsSecret;
    expect(holdsSecret).toBeDefined();
    const path = ['access', 'tokenVerification', 'jwsKey'];
    expect(holdsSecret?.(path, { access: { tokenVerification: { jwsAlgorithm: 'HS_256' } } })).toBe(true);
    expect(holdsSecret?.(path, { access: { tokenVerification: { jwsAlgorithm: 'RS_256' } } })).toBe(false);
    expect(holdsSecret?.(path, {})).toBe(false);
    expect(holdsSecret?.(['access', 'tokenVerification', 'jweKey'], {})).toBe(true);
  });
});

describe('manifest rules hooks', () => {
  /** Runs every kind's rules on `documents` with a context that records what they report. */
  function runRules(documents: RuleDocument[]): string[] {
    const reported: string[] = [];
    const position = (doc: RuleDocument): number => documents.indexOf(doc) + 1;
    const context: ManifestRuleContext = {
      documents: (type) => (type === undefined ? documents : documents.filter((d) => d.kind === type)),
      report: (doc: RuleDocument, problem: RuleProblem) => reported.push(`${doc.name} ${problem.code} /${problem.pointer.join('/')}: ${problem.message}`),
      where: (doc, pointer) => `m.yaml:${position(doc)}:/${pointer.join('/')}`,
      label: (doc) => `${doc.kind} '${doc.name}'`,
      certificates: NODE_CERTIFICATES,
      regexProblem: (pattern) => (pattern === '(' ? 'missing )' : undefined),
    };
    for (const kind of KINDS) kind.rules?.(context.documents(kind.type), context);
    return reported;
  }
  const doc = (kind: ResourceType, name: string, attributes: Record<string, unknown> = {}, relationships: Record<string, string[]> = {}): RuleDocument => ({
    kind,
    name,
    attributes,
    relationships,
  });

  it('reports the second of two conflicting to-one declarations, in the order of the documents', () => {
    const documents = [
      doc('ssl-certificate', 'c1', {}, { 'virtual-hosts': ['shop'] }),
      doc('virtual-host', 'shop', {}, { 'ssl-certificate': ['c2'] }),
    ];
    expect(runRules(documents)).toEqual([
      "shop conflicting-link /relationships/ssl-certificate: virtual-host 'shop' can link one ssl-certificate only: 'c2' here and 'c1' at m.yaml:1:/relationships/virtual-hosts/0",
    ]);
    expect(runRules([...documents].reverse())).toEqual([
      "c1 conflicting-link /relationships/virtual-hosts/0: virtual-host 'shop' can link one ssl-certificate only: 'c1' here and 'c2' at m.yaml:1:/relationships/ssl-certificate",
    ]);
  });

  it('accepts a certificate mode whose link is declared from the other side only', () => {
    const host = doc('virtual-host', 'shop', { tls: { certificateMode: 'ACME_SERVICE' } });
    expect(runRules([host])).toEqual([
      "shop certificate-mode-link /attributes/tls/certificateMode: virtual-host 'shop' has tls.certificateMode ACME_SERVICE but no acme-service link: add relationships: { acme-service: <name> }",
    ]);
    expect(runRules([host, doc('acme-service', 'le', {}, { 'virtual-hosts': ['shop'] })])).toEqual([]);
  });

  it('checks regex entry paths and their unique priorities', () => {
    const regex = (name: string, value: string, priority: number) => doc('mapping', name, { entryPath: { value, regexFormatEnforced: true, priority } });
    expect(runRules([regex('a', '^/a', 5), regex('b', '(', 5), doc('mapping', 'c', { entryPath: { value: '(', priority: 5 } })])).toEqual([
      "b invalid-regex /attributes/entryPath/value: invalid regular expression in 'entryPath.value' of mapping 'b' (regexFormatEnforced is true): missing )",
      "b duplicate-priority /attributes/entryPath/priority: regex mapping 'b' has entryPath.priority 5, already used by regex mapping 'a' (m.yaml:1:/attributes/entryPath/priority): priorities of regex mappings must be unique",
    ]);
  });
});

describe('object keys', () => {
  it('round-trips kind and name, whatever the name holds', () => {
    expect(parseObjectKey(objectKey('mapping', 'a\u0000b'))).toEqual({ kind: 'mapping', name: 'a\u0000b' });
    expect(splitKey(joinKey<'x'>('a', 'b', 'c'))).toEqual(['a', 'b', 'c']);
    expect(objectKey('mapping', 'x')).not.toBe(objectKey('mapping-x', ''));
  });

  it('keeps the text of link keys, which the live digest of saved plans hashes', () => {
    const link = { from: { kind: 'virtual-host', name: 'shop' }, relationship: 'mappings', to: { kind: 'mapping', name: 'api' } } as const;
    expect(linkKey(link)).toBe('virtual-host\u0000shop\u0000mappings\u0000mapping\u0000api');
    expect(declaredKey(link.from, 'mappings')).toBe('virtual-host\u0000shop\u0000mappings');
  });
});

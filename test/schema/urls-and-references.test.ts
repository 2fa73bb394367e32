/**
 * The pure helpers behind three fixes: a reference mapped by name keeps every other value
 * as it is (an export's secret slot stays a class instance); a URL's user name and password
 * are masked, found also in a text that is no URL; an adopt edit finds a document whose name
 * is written with a variable by the line it starts at.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapReferences } from '../../src/schema/references.js';
import { hasUrlCredentials, maskUrlCredentials, maskedUrls } from '../../src/schema/urls.js';
import { SecretSlot } from '../../src/export/values.js';
import { editManifestText } from '../../src/adopt/edit.js';

describe('mapReferences', () => {
  it('maps each reference and keeps every other value, class instances included, without changing its input', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 99 }), { maxLength: 4 }), fc.boolean(), (ids, writeOnly) => {
        const slot = new SecretSlot(writeOnly);
        const attributes = {
          access: { tokenVerification: { jweKey: slot } },
          ipRules: { ipAddressWhitelists: { pathWhitelists: [{ enabled: true, ipAddressListIds: ids }] } },
        };
        const mapped = mapReferences('mapping', attributes, (_target, value) => `list-${value}`);
        expect(mapped.access.tokenVerification.jweKey).toBe(slot);
        expect(mapped.ipRules.ipAddressWhitelists.pathWhitelists[0]?.ipAddressListIds).toEqual(ids.map((id) => `list-${id}`));
        expect(attributes.ipRules.ipAddressWhitelists.pathWhitelists[0]?.ipAddressListIds).toEqual(ids);
      }),
    );
  });
});

describe('URLs with credentials', () => {
  it('masks the user name and password, and only them', () => {
    expect(maskUrlCredentials('https://svc:pw@idp.example/jwks?x=@y')).toBe('https://***@idp.example/jwks?x=@y');
    expect(maskUrlCredentials('https://idp.example/a@b')).toBe('https://idp.example/a@b');
    expect(hasUrlCredentials('not a url //user@host/x')).toBe(true);
    expect(hasUrlCredentials('https://idp.example/jwks')).toBe(false);
  });

  it('masks a remote JWKS url in live attributes, copying only what it changes', () => {
    const attributes = { name: 'k', url: 'https://a:b@idp.example/jwks', tls: { enabled: true } };
    const masked = maskedUrls('remote-json-web-key-set', attributes);
    expect(masked.url).toBe('https://***@idp.example/jwks');
    expect(masked.tls).toBe(attributes.tls);
    expect(attributes.url).toBe('https://a:b@idp.example/jwks');
    const clean = { name: 'k', url: 'https://idp.example/jwks' };
    expect(maskedUrls('remote-json-web-key-set', clean)).toBe(clean);
  });
});

describe('adopt edits of a document named with a variable', () => {
  const text = 'apiVersion: gwops/v1\nkind: mapping\nname: kept\n---\napiVersion: gwops/v1\nkind: mapping\nname: ${TEAM}-gone\nattributes:\n  backendPath: /a/\n';

  it('finds the document by its line, for a removal and for a change', () => {
    const removed = editManifestText(text, [{ ref: { kind: 'mapping', name: 'team-gone', line: 5 }, edit: { type: 'remove-document' } }]);
    expect(removed.notFound).toEqual([]);
    expect(removed.text).not.toContain('gone');
    const set = editManifestText(text, [{ ref: { kind: 'mapping', name: 'team-gone', line: 5 }, edit: { type: 'set', path: ['attributes', 'backendPath'], value: '/b/' } }]);
    expect(set.text).toContain('backendPath: /b/');
    expect(set.text).toContain('name: ${TEAM}-gone');
  });

  it('without a line, or at a line of another kind, says it is not found', () => {
    const ref = { kind: 'mapping', name: 'team-gone' };
    expect(editManifestText(text, [{ ref, edit: { type: 'remove-document' } }]).notFound).toEqual([ref]);
    const other = { kind: 'back-end-group', name: 'team-gone', line: 5 };
    expect(editManifestText(text, [{ ref: other, edit: { type: 'remove-document' } }]).notFound).toEqual([other]);
  });
});

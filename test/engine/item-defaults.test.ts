/**
 * List items compared as the gateway holds them (src/engine/item-defaults.ts): the
 * kind's item defaults filled into declared items, keys sorted on both sides of a change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_PUBLIC_KEYS, diffAttributes } from '../../src/engine/diff.js';
import { sortedKeys, withItemDefaults } from '../../src/engine/item-defaults.js';

const LIVE_ITEM = { protocol: 'HTTP', hostName: 'a.internal', port: 8080, mode: 'ENABLED', spare: false, weight: 100 };

describe('list items with the gateway\'s item defaults', () => {
  it('a declared item without the defaults equals the live item that has them', () => {
    const diff = diffAttributes('back-end-group', { backendHosts: [{ hostName: 'a.internal', port: 8080 }] }, { backendHosts: [LIVE_ITEM] }, [], NO_PUBLIC_KEYS);
    expect(diff.changes).toEqual([]);
  });

  it('a live member that differs from its default is a change (the list is replaced whole)', () => {
    const diff = diffAttributes('back-end-group', { backendHosts: [{ hostName: 'a.internal', port: 8080 }] }, { backendHosts: [{ ...LIVE_ITEM, mode: 'DISABLED' }] }, [], NO_PUBLIC_KEYS);
    expect(diff.changes).toHaveLength(1);
  });

  it('a default is filled in only where the live item reports that member', () => {
    expect(withItemDefaults('back-end-group', ['backendHosts'], [{ hostName: 'a' }], [{ hostName: 'a', weight: 5 }])).toEqual([{ hostName: 'a', weight: 100 }]);
    expect(withItemDefaults('back-end-group', ['other'], [{ hostName: 'a' }], [{ weight: 5 }])).toEqual([{ hostName: 'a' }]);
  });

  it('changing one member of one item changes that member only, in both sides of the change, keys sorted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 1, max: 65535 }), fc.shuffledSubarray(Object.keys(LIVE_ITEM), { minLength: 6 }), (before, after, order) => {
        fc.pre(before !== after);
        const live = Object.fromEntries(order.map((k) => [k, k === 'port' ? before : LIVE_ITEM[k as keyof typeof LIVE_ITEM]]));
        const diff = diffAttributes('back-end-group', { backendHosts: [{ port: after, hostName: 'a.internal' }] }, { backendHosts: [live] }, [], NO_PUBLIC_KEYS);
        expect(diff.changes).toHaveLength(1);
        const [change] = diff.changes;
        const [b] = change?.before as Record<string, unknown>[];
        const [a] = change?.after as Record<string, unknown>[];
        expect(Object.keys(a ?? {})).toEqual(Object.keys(LIVE_ITEM).sort());
        expect(Object.keys(b ?? {})).toEqual(Object.keys(LIVE_ITEM).sort());
        expect(Object.keys(LIVE_ITEM).filter((k) => b?.[k] !== a?.[k])).toEqual(['port']);
      }),
    );
  });

  it('sortedKeys sorts object keys recursively and keeps array order', () => {
    expect(JSON.stringify(sortedKeys({ b: [{ d: 1, c: 2 }], a: 1 }))).toBe('{"a":1,"b":[{"c":2,"d":1}]}');
  });
});

describe('members of declared list items that the manifest leaves out', () => {
  const RULE = { name: 'read-only', pathPattern: { pattern: '^/a/' }, httpMethodPattern: { pattern: '^GET$' } };
  /** The allow rule as the gateway holds it after a PATCH of RULE (the schema's item defaults filled in). */
  const HELD = {
    name: 'read-only',
    enabled: true,
    logOnly: false,
    allowRuleParameters: [],
    pathPattern: { pattern: '^/a/', caseIgnored: false, inverted: false },
    httpMethodPattern: { pattern: '^GET$', caseIgnored: false, inverted: false },
    contentTypePattern: { pattern: '', caseIgnored: false, inverted: false },
  };

  it('an item that holds its defaults equals the declared item', () => {
    expect(diffAttributes('mapping', { allowRules: [RULE] }, { allowRules: [HELD] }, [], NO_PUBLIC_KEYS).changes).toEqual([]);
  });

  it('a member of a nested object the item leaves out is compared with its default', () => {
    const live = { allowRules: [{ ...HELD, httpMethodPattern: { ...HELD.httpMethodPattern, inverted: true } }] };
    const diff = diffAttributes('mapping', { allowRules: [RULE] }, live, [], NO_PUBLIC_KEYS);
    expect(diff.changes.map((c) => c.path)).toEqual(['allowRules']);
    expect(diff.changedTopLevel).toEqual(['allowRules']);
  });

  it('lists inside items and lists inside objects are filled by their own defaults', () => {
    const declared = { allowRules: [{ ...RULE, allowRuleParameters: [{ parameterNamePattern: { pattern: 'q' } }] }] };
    const parameter = { mandatory: false, parameterNamePattern: { pattern: 'q', caseIgnored: false, inverted: false }, parameterValuePattern: { pattern: '', caseIgnored: false, inverted: true } };
    const live = { allowRules: [{ ...HELD, allowRuleParameters: [parameter] }] };
    expect(diffAttributes('mapping', declared, live, [], NO_PUBLIC_KEYS).changes.map((c) => c.path)).toEqual(['allowRules']);
    const restriction = { authorizedRoles: ['r'] };
    const heldRestriction = { enabled: false, authorizedRoles: ['r'], authorizedPlans: [], entryPathPattern: { pattern: '', caseIgnored: false, inverted: false } };
    expect(diffAttributes('mapping', { access: { restrictions: [restriction] } }, { access: { restrictions: [heldRestriction] } }, [], NO_PUBLIC_KEYS).changes.map((c) => c.path)).toEqual([
      'access.restrictions',
    ]);
  });

  it('a member the live item holds that neither the manifest nor the item defaults give is a change, at any depth (a PATCH of the list drops it)', () => {
    const nested = ['pathPattern', 'httpMethodPattern', 'contentTypePattern'] as const;
    fc.assert(
      fc.property(fc.constantFrom<(typeof nested)[number] | undefined>(undefined, ...nested), fc.constantFrom('multipleSingleLineRegex', 'extra'), fc.oneof(fc.boolean(), fc.string()), (where, member, value) => {
        const item: Record<string, unknown> = where === undefined ? { ...HELD, [member]: value } : { ...HELD, [where]: { ...HELD[where], [member]: value } };
        const diff = diffAttributes('mapping', { allowRules: [RULE] }, { allowRules: [item] }, [], NO_PUBLIC_KEYS);
        expect(diff.changes.map((c) => c.path)).toEqual(['allowRules']);
      }),
    );
    // The pattern's own name, set by hand on a declared rewrite (found by the convergence drill).
    const rewrite = { contentPattern: { pattern: 'a' }, replaceWith: 'b' };
    const held = { enabled: true, contentType: { pattern: '', caseIgnored: false, inverted: false }, contentPattern: { pattern: 'a', caseIgnored: false, inverted: false }, replaceWith: 'b' };
    const body = (item: unknown) => ({ application: { response: { body: { rewrites: [item] } } } });
    expect(diffAttributes('mapping', body(rewrite), body(held), [], NO_PUBLIC_KEYS).changes).toEqual([]);
    expect(diffAttributes('mapping', body(rewrite), body({ ...held, contentPattern: { ...held.contentPattern, name: 'by-hand' } }), [], NO_PUBLIC_KEYS).changes.map((c) => c.path)).toEqual([
      'application.response.body.rewrites',
    ]);
  });

  it('a default is left out where the live item does not hold that member, nested objects included', () => {
    const live = [{ name: 'read-only', pathPattern: { pattern: '^/a/' }, httpMethodPattern: { pattern: '^GET$', inverted: false } }];
    expect(withItemDefaults('mapping', ['allowRules'], [RULE], live)).toEqual([{ ...RULE, httpMethodPattern: { pattern: '^GET$', inverted: false } }]);
  });
});

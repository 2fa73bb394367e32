import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FilterSyntaxError, matchesFilter, parseFilters } from '../../../src/api/filter.js';
import { kindOf } from '../../../src/kinds/index.js';

const mapping = (id: string, attributes: Record<string, unknown>) => ({ type: 'mapping', id, attributes });

const shop = mapping('4', {
  name: 'shop-api',
  labels: ['team-a', 'public'],
  entryPath: { value: '/shop/', priority: 10, regexFormatEnforced: false },
  backendPath: '/api',
  limits: { general: { maxRequestBodySize: 1024 } },
});
const blog = mapping('5', { name: 'blog', labels: [], entryPath: { value: '/blog/', priority: -3, regexFormatEnforced: true } });
const vhost = {
  type: 'virtual-host',
  id: '2',
  attributes: { name: 'www', networkInterface: { http: { port: 80, enabled: true } } },
};
const message = {
  type: 'validator-message',
  id: 'MAPPING_WITHOUT_VIRTUAL_HOST-mapping-4',
  meta: { severity: 'WARNING' },
  attributes: { code: 'MAPPING_WITHOUT_VIRTUAL_HOST', meta: { severity: 'WARNING', model: { type: 'mapping', id: '4' } } },
};

/** The mapping's filter properties, as the emulator's list route passes them (`label` reads `labels`). */
const properties = kindOf('mapping').filterProperties;

const names = (filters: string[], items = [shop, blog]): string[] => {
  const f = parseFilters(filters);
  return items.filter((r) => matchesFilter(f, r, properties)).map((r) => String(r.attributes.name));
};

describe('parseFilters', () => {
  it('parses one condition per parameter, with commas as OR', () => {
    expect(parseFilters(['name==a', 'label=@team,name==b'])).toEqual({
      all: [
        [{ property: 'name', path: ['name'], operator: '==', values: ['a'] }],
        [
          { property: 'label', path: ['label'], operator: '=@', values: ['team'] },
          { property: 'name', path: ['name'], operator: '==', values: ['b'] },
        ],
      ],
    });
  });

  it('treats a comma piece without its own property and operator as another value of the previous condition', () => {
    expect(parseFilters(['name==a,b,c'])).toEqual({
      all: [[{ property: 'name', path: ['name'], operator: '==', values: ['a', 'b', 'c'] }]],
    });
    // "x y" is no property, so the whole piece is a value
    expect(parseFilters(['name=@a,x y==z']).all[0]?.[0]?.values).toEqual(['a', 'x y==z']);
  });

  it('splits at the first operator and keeps the rest of the value, even empty', () => {
    expect(parseFilters(['entryPath.value==/a==b']).all[0]?.[0]).toMatchObject({ path: ['entryPath', 'value'], values: ['/a==b'] });
    expect(parseFilters(['name=@x==y']).all[0]?.[0]).toMatchObject({ operator: '=@', values: ['x==y'] });
    expect(parseFilters(['name==']).all[0]?.[0]?.values).toEqual(['']);
  });

  it('means no filter when there are no parameters', () => {
    expect(parseFilters([])).toEqual({ all: [] });
    expect(matchesFilter(parseFilters([]), shop)).toBe(true);
  });

  it.each(['', 'name', 'name=a', '==a', 'na me==a', '.name==a', 'name.==a', ',name==a'])(
    'rejects %j with a FilterSyntaxError',
    (bad) => {
      expect(() => parseFilters([bad])).toThrow(FilterSyntaxError);
    },
  );
});

describe('matchesFilter', () => {
  it('== is exact and case sensitive', () => {
    expect(names(['name==shop-api'])).toEqual(['shop-api']);
    expect(names(['name==shop'])).toEqual([]);
    expect(names(['name==SHOP-API'])).toEqual([]);
  });

  it('=@ is a case-sensitive substring match', () => {
    expect(names(['name=@op-a'])).toEqual(['shop-api']);
    expect(names(['name=@o'])).toEqual(['shop-api', 'blog']);
    expect(names(['name=@API'])).toEqual([]);
  });

  it('several parameters AND, commas OR', () => {
    expect(names(['name=@o', 'label==team-a'])).toEqual(['shop-api']);
    expect(names(['name==blog,label==team-a'])).toEqual(['shop-api', 'blog']);
    expect(names(['name==blog,shop-api'])).toEqual(['shop-api', 'blog']);
    expect(names(['name==blog', 'name==shop-api'])).toEqual([]);
  });

  it('follows dotted paths and compares numbers and booleans by their string form', () => {
    expect(names(['entryPath.priority==-3'])).toEqual(['blog']);
    expect(names(['entryPath.regexFormatEnforced==true'])).toEqual(['blog']);
    expect(names(['limits.general.maxRequestBodySize==1024'])).toEqual(['shop-api']);
    expect(names(['limits.general.maxRequestBodySize=@02'])).toEqual(['shop-api']);
    expect(matchesFilter(parseFilters(['networkInterface.http.port==80']), vhost)).toBe(true);
    expect(matchesFilter(parseFilters(['networkInterface.http.port==8080']), vhost)).toBe(false);
  });

  it('matches an object property by its value member (mapping filter entryPath)', () => {
    expect(names(['entryPath==/shop/'])).toEqual(['shop-api']);
    expect(names(['entryPath=@/b'])).toEqual(['blog']);
  });

  it('matches the label property and the labels list by any element', () => {
    expect(names(['label==team-a'])).toEqual(['shop-api']);
    expect(names(['labels==public'])).toEqual(['shop-api']);
    expect(names(['label=@team'])).toEqual(['shop-api']);
    expect(names(['label==team'])).toEqual([]);
  });

  it('reads another attribute for a property only as the properties handed in say (the kind data)', () => {
    expect(matchesFilter(parseFilters(['label==team-a']), shop)).toBe(false);
    expect(matchesFilter(parseFilters(['tag==public']), shop, { tag: ['labels'] })).toBe(true);
    expect(matchesFilter(parseFilters(['tag==public']), shop, { tag: ['entryPath'] })).toBe(false);
    // An attribute of the property's own name comes first.
    expect(matchesFilter(parseFilters(['label==x']), mapping('6', { label: 'x', labels: ['y'] }), properties)).toBe(true);
    expect(matchesFilter(parseFilters(['label==y']), mapping('6', { label: 'x', labels: ['y'] }), properties)).toBe(false);
  });

  it('matches through arrays of objects', () => {
    const group = {
      type: 'back-end-group',
      id: '7',
      attributes: { name: 'g', backendHosts: [{ hostName: 'a.local' }, { hostName: 'b.local' }] },
    };
    expect(matchesFilter(parseFilters(['backendHosts.hostName==b.local']), group)).toBe(true);
    expect(matchesFilter(parseFilters(['backendHosts.hostName==c.local']), group)).toBe(false);
  });

  it('falls back to the resource object itself for type, id and meta', () => {
    expect(matchesFilter(parseFilters(['meta.severity==WARNING']), message)).toBe(true);
    expect(matchesFilter(parseFilters(['meta.severity==ERROR']), message)).toBe(false);
    expect(matchesFilter(parseFilters(['type==validator-message']), message)).toBe(true);
    expect(names(['id==5'])).toEqual(['blog']);
  });

  it('looks in attributes first', () => {
    expect(matchesFilter(parseFilters(['meta.model.type==mapping']), message)).toBe(true);
    expect(matchesFilter(parseFilters(['code=@WITHOUT']), message)).toBe(true);
  });

  it('never matches a missing property, an object without value, or null', () => {
    expect(names(['tenant==x'])).toEqual([]);
    expect(names(['limits.general==1024'])).toEqual([]);
    expect(matchesFilter(parseFilters(['name==null']), mapping('1', { name: null }))).toBe(false);
    expect(matchesFilter(parseFilters(['name==x']), { type: 'mapping', id: '1' })).toBe(false);
  });

  it('== on name matches exactly the resource with that name (property)', () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !s.includes(',')), fc.string(), (wanted, other) => {
        const f = parseFilters([`name==${wanted}`]);
        expect(matchesFilter(f, mapping('1', { name: wanted }))).toBe(true);
        expect(matchesFilter(f, mapping('2', { name: other }))).toBe(other === wanted);
        expect(matchesFilter(parseFilters([`name=@${wanted}`]), mapping('3', { name: `<${wanted}>` }))).toBe(true);
      }),
    );
  });
});

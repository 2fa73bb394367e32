/**
 * The warnings about `drift.ignore` entries that would ignore nothing
 * (src/manifest/drift-ignore-check.ts): unknown object names and attribute paths with a
 * did-you-mean, paths into lists, relationships named by an alias or from the other side.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../src/kinds/index.js';
import { ignoreEntryWarnings } from '../../src/manifest/drift-ignore-check.js';
import type { DriftIgnoreEntry } from '../../src/manifest/drift-ignore.js';

const entry = (object: string, attribute: string): DriftIgnoreEntry => {
  const [kind, name] = object.split('/') as [ResourceType, string];
  return { object, kind, name, attribute, reason: 'r', until: '2999-01-01' };
};

const warnings = (...entries: DriftIgnoreEntry[]): string[] =>
  ignoreEntryWarnings({ ignore: entries }, (kind) => (kind === 'mapping' ? ['shop-api'] : ['shop'])).map((w) => `${w.index} ${w.field}: ${w.message}`);

describe('drift.ignore entries that ignore nothing', () => {
  it('accepts paths a difference can have', () => {
    expect(
      warnings(
        entry('mapping/shop-api', 'backendPath'),
        entry('mapping/shop-api', 'entryPath.value'),
        entry('mapping/shop-api', 'entryPath'),
        entry('mapping/shop-api', 'denyRuleGroups.SQLI_PARAM_VALUE.logOnly'),
        entry('mapping/shop-api', 'relationships.back-end-groups'),
        entry('mapping/*', '*'),
        entry('virtual-host/shop', 'relationships.mappings'),
        entry('mapping/added-by-hand', '*'),
      ),
    ).toEqual([]);
  });

  it('warns with a did-you-mean about a name or a path with a typo', () => {
    expect(warnings(entry('mapping/shop-apl', 'backendPth'), entry('mapping/shop-apl', '*'))).toEqual([
      "0 object: drift.ignore object 'mapping/shop-apl' names no mapping that the manifests declare, so it ignores nothing (an object added on the gateway is matched only by attribute *): did you mean 'mapping/shop-api'?",
      "0 attribute: drift.ignore attribute 'backendPth' of mapping/shop-apl is no attribute path of mapping, so the entry ignores nothing: did you mean 'backendPath'?",
      "1 object: drift.ignore object 'mapping/shop-apl' names no mapping that the manifests declare (fine for an object added on the gateway): did you mean 'mapping/shop-api'?",
    ]);
  });

  it('says how to name a list and a link', () => {
    expect(warnings(entry('mapping/shop-api', 'labels.x'), entry('mapping/shop-api', 'relationships.back-end-group'), entry('mapping/shop-api', 'relationships.virtual-hosts'))).toEqual([
      "0 attribute: drift.ignore attribute 'labels.x' of mapping/shop-api is no attribute path of mapping, so the entry ignores nothing: did you mean 'labels'?",
      "1 attribute: drift.ignore attribute 'relationships.back-end-group' of mapping/shop-api names the relationship by another of its names, so the entry ignores nothing: write relationships.back-end-groups",
      "2 attribute: drift.ignore attribute 'relationships.virtual-hosts' of mapping/shop-api names the link from the mapping side, so the entry ignores nothing; a link difference is named from its canonical side: write object virtual-host/<name>, attribute relationships.mappings",
    ]);
  });
});

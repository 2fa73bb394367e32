/**
 * The export of sub-resources (`export --deny-rule-use`, docs/manifest-reference.md "Deny
 * rule use"): only the members that differ from the default use are kept, and keys that
 * hold a custom object's id are written by its document's name.
 */
import { describe, expect, it } from 'vitest';
import { buildDocuments } from '../../src/export/build.js';
import type { ApiResource } from '../../src/gateway/index.js';
import { differingUse } from '../../src/operations/steps/export-sub-resources.js';

const res = (type: string, id: string, attributes: Record<string, unknown>): ApiResource => ({ type, id, attributes, relationships: {} });
const GROUP_DEFAULTS = { enabled: true, logOnly: false, exceptions: [] };

describe('differingUse', () => {
  it('keeps only the members that differ, none when the use is the default, every known member with keepDefaults', () => {
    const exception = { enabled: true, parameterNamePattern: { enabled: true, pattern: '^q$', name: 'q' } };
    expect(differingUse({ enabled: true, logOnly: false, exceptions: [] }, GROUP_DEFAULTS, false)).toBeUndefined();
    expect(differingUse({ enabled: true, logOnly: false, exceptions: [exception], extra: 1 }, GROUP_DEFAULTS, false)).toEqual({ exceptions: [exception] });
    expect(differingUse({ enabled: false, logOnly: false, exceptions: [] }, GROUP_DEFAULTS, true)).toEqual({ enabled: false, logOnly: false, exceptions: [] });
    expect(differingUse({ enabled: true, logOnly: false, exceptions: [] }, GROUP_DEFAULTS, true)).toBeUndefined();
  });
});

describe('buildDocuments with sub-resources', () => {
  it('writes custom keys by the name of the exported object and leaves out, with a warning, one that is not exported', () => {
    const lists = {
      'custom-deny-rule-group': [res('custom-deny-rule-group', '7', { name: 'shop-rules' })],
      mapping: [res('mapping', '3', { name: 'm', denyRuleGroups: { SQLI_PARAM_VALUE: { logOnly: true } }, customDenyRuleGroups: { '7': { logOnly: true }, '9': { logOnly: true } } })],
    } as const;
    const built = buildDocuments({ exported: ['custom-deny-rule-group', 'mapping'], lists });
    const mapping = built.documents.find((d) => d.kind === 'mapping');
    expect(mapping?.attributes).toEqual({ denyRuleGroups: { SQLI_PARAM_VALUE: { logOnly: true } }, customDenyRuleGroups: { 'shop-rules': { logOnly: true } } });
    expect(built.warnings).toEqual(["mapping 'm' uses custom-deny-rule-group with id 9, which is not exported: that custom deny rule group use is left out"]);
  });
});

/**
 * The XML of the export archives (docs/gateway-api.md "Export and import"), in the shape
 * real clients read and edit: `alec_full.xml` with root `ConfigRoot`, its first node's
 * `Nodes/Node/HostName`, the archived objects (`Mappings/Mapping[@Id]/Name`) with their
 * allow rules and deny rule usage, and the built-in `DenyRules` and `DenyRuleGroups`; and
 * the `alec_table.xml` of one kind's objects, whose `Name`, `Enabled` and `LogOnly` edits are
 * read back. Each object in `alec_table.xml` also carries the emulator's own complete data,
 * its attributes as JSON text in `GwopsAttributes`; the configuration archive carries it in
 * a JSON entry of its own (routes-transfer.ts).
 */
import type { ObjectArchive } from '../kinds/emulator-hooks.js';
import { DENY_RULES, DENY_RULE_GROUPS, ruleName, usageOf } from './deny-rules.js';
import type { DenyRuleUsage, Json, StoredObject } from './model.js';
import { errors } from './responses.js';
import type { XmlElement } from './xml.js';
import { childNamed, element } from './xml.js';

/** The element of an object in `alec_table.xml` that holds the emulator's own attribute JSON. */
export const OWN_ATTRIBUTES = 'GwopsAttributes';

/** `DefaultId` of the built-in "no restriction" IP pattern of an allow rule. */
export const NO_RESTRICTION_DEFAULT_ID = '-100';

function flag(value: boolean): string {
  return value ? 'true' : 'false';
}

/** The built-in "no restriction" IP pattern an allow rule carries. */
function noRestrictionIpPattern(): XmlElement {
  return element('IpPattern', [
    element('Name', 'No restriction'),
    element('Comment', ''),
    element('Active', 'true'),
    element('Pattern', [element('PatternString', ''), element('IgnoreCase', 'false'), element('InvertPattern', 'false'), element('AirlockRegexFormat', 'true')]),
    element('DefaultId', NO_RESTRICTION_DEFAULT_ID),
  ]);
}

function allowRules(obj: StoredObject, attribute: string): XmlElement {
  const items = obj.attributes[attribute];
  const rules = Array.isArray(items) ? items : [];
  return element(
    'AllowRules',
    rules.map((rule) => {
      const name = typeof rule === 'object' && rule !== null && !Array.isArray(rule) && typeof rule.name === 'string' ? rule.name : '';
      return element('AllowRule', [element('Name', name), noRestrictionIpPattern()]);
    }),
  );
}

/** Per built-in group: its id and flags (`Enabled` with a `Locked` attribute), then its rules' `DenyRuleUsage`. */
function denyRuleUsage(obj: StoredObject): XmlElement {
  return element(
    'DenyRuleGroupUsages',
    DENY_RULE_GROUPS.map((g) => {
      const usage = usageOf(obj, g.shortName);
      return element('DenyRuleGroupUsage', [
        element('DenyRuleGroupId', String(g.xmlId)),
        element('Enabled', flag(usage.enabled), { Locked: 'false' }),
        element('LogOnly', flag(usage.logOnly)),
        element(
          'DenyRuleUsages',
          g.rules.map((r) => {
            const ruleUsage = usageOf(obj, r.shortName);
            return element('DenyRuleUsage', [element('DenyRuleId', String(r.xmlId)), element('Enabled', flag(ruleUsage.enabled)), element('LogOnly', flag(ruleUsage.logOnly))]);
          }),
        ),
      ]);
    }),
  );
}

/**
 * The element of one archived object: `<{itemElement} Id>` with `Name`, its `AllowRules` and
 * deny rule usage when the archive declares them, and `GwopsAttributes` when `ownData`.
 */
export function objectElement(obj: StoredObject, archive: ObjectArchive, ownData: boolean): XmlElement {
  const name = typeof obj.attributes.name === 'string' ? obj.attributes.name : '';
  return element(
    archive.itemElement,
    [
      element('Name', name),
      ...(archive.allowRulesAttribute === undefined ? [] : [allowRules(obj, archive.allowRulesAttribute)]),
      ...(archive.denyRuleUsage === true ? [denyRuleUsage(obj)] : []),
      ...(ownData ? [element(OWN_ATTRIBUTES, JSON.stringify(obj.attributes))] : []),
    ],
    { Id: obj.id },
  );
}

/** The built-in `DenyRules` and `DenyRuleGroups` sections of `alec_full.xml`. */
export function denyRuleSections(): XmlElement[] {
  return [
    element(
      'DenyRules',
      DENY_RULES.map((r) =>
        element('DenyRule', [element('Name', ruleName(r)), element('DenyRuleGroupIds', [element('DenyRuleGroupId', String(r.group.xmlId))])], { Id: String(r.xmlId) }),
      ),
    ),
    element(
      'DenyRuleGroups',
      DENY_RULE_GROUPS.map((g) =>
        element('DenyRuleGroup', [element('Name', g.name), element('ShortName', g.shortName), element('DenyRuleIds', g.rules.map((r) => element('DenyRuleId', String(r.xmlId))))], {
          Id: String(g.xmlId),
        }),
      ),
    ),
  ];
}

/** The short name of the built-in group or rule an archive id names (its numeric id, or its short name). */
function shortNameOf(id: string, rules: boolean, file: string): string {
  const text = id.trim();
  const entries = rules ? DENY_RULES : DENY_RULE_GROUPS;
  const found = entries.find((e) => String(e.xmlId) === text || e.shortName === text);
  if (!found) throw errors.invalidValue(`${file}: ${rules ? 'DenyRuleId' : 'DenyRuleGroupId'} '${text}' names no built-in deny ${rules ? 'rule' : 'rule group'}`);
  return found.shortName;
}

/** A flag's text: `true` or `false` in any case (Python writes `True`). @throws EmulatorApiError 400 INVALID_VALUE. */
function flagOf(parent: XmlElement, name: string, fallback: boolean, file: string): boolean {
  const child = childNamed(parent, name);
  if (!child) return fallback;
  const text = child.text.trim().toLowerCase();
  if (text === 'true' || text === 'false') return text === 'true';
  throw errors.invalidValue(`${file}: <${name}> of <${parent.name}> holds '${child.text}'; expected true or false`);
}

/**
 * The deny rule usage an archived object's element states, by short name: every element
 * below it that holds a `DenyRuleGroupId` or a `DenyRuleId` with `Enabled` and `LogOnly`
 * (missing flags read as enabled, not log-only).
 * @throws EmulatorApiError 400 INVALID_VALUE for an unknown id or a flag that is no boolean.
 */
export function usageIn(item: XmlElement, file: string): Map<string, DenyRuleUsage> {
  const found = new Map<string, DenyRuleUsage>();
  const visit = (el: XmlElement): void => {
    for (const [idElement, rules] of [
      ['DenyRuleGroupId', false],
      ['DenyRuleId', true],
    ] as const) {
      const id = childNamed(el, idElement);
      if (id !== undefined && childNamed(el, 'Enabled') !== undefined) {
        found.set(shortNameOf(id.text, rules, file), { enabled: flagOf(el, 'Enabled', true, file), logOnly: flagOf(el, 'LogOnly', false, file) });
      }
    }
    el.children.forEach(visit);
  };
  visit(item);
  return found;
}

/** The attribute JSON an archived object's element carries in `GwopsAttributes`; `{}` when it has none. @throws EmulatorApiError 400 INVALID_REQUEST_FORMAT. */
export function ownAttributesIn(item: XmlElement, file: string): Json {
  const child = childNamed(item, OWN_ATTRIBUTES);
  if (!child) return {};
  try {
    return JSON.parse(child.text) as Json;
  } catch {
    throw errors.invalidFormat(`${file}: <${OWN_ATTRIBUTES}> of <${item.name}> does not hold JSON`);
  }
}

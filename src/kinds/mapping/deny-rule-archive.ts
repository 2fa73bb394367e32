/**
 * A mapping's deny rule usage in the export archives (docs/gateway-api.md "Export and
 * import"): per built-in group its `DenyRuleGroupUsage` (id, `Enabled` with a `Locked`
 * attribute, `LogOnly`) with its rules' `DenyRuleUsage`, the built-in `DenyRules` and
 * `DenyRuleGroups` sections of `alec_full.xml`, and the `Enabled` and `LogOnly` edits read
 * back from an uploaded archive. The emulator reaches it through the mapping's
 * `ObjectArchive.usage` hook.
 */
import type { ArchiveElement, ArchiveUsage, KindErrors, StoredObject } from '../emulator-hooks.js';
import { DENY_RULES, DENY_RULE_GROUPS, ruleName, storedUsage, usageOf } from './deny-rules.js';
import type { DenyRuleUsage } from './deny-rules.js';

/** An element with child elements, or with text when `content` is a string (as the emulator's xml.ts builds them). */
function element(name: string, content: readonly ArchiveElement[] | string, attributes: Record<string, string> = {}): ArchiveElement {
  return typeof content === 'string' ? { name, attributes, children: [], text: content } : { name, attributes, children: content, text: '' };
}

function childNamed(parent: ArchiveElement, name: string): ArchiveElement | undefined {
  return parent.children.find((c) => c.name === name);
}

function flag(value: boolean): string {
  return value ? 'true' : 'false';
}

/** Per built-in group: its id and flags (`Enabled` with a `Locked` attribute), then its rules' `DenyRuleUsage`. */
function usageElement(obj: StoredObject): ArchiveElement {
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

/** The built-in `DenyRules` and `DenyRuleGroups` sections of `alec_full.xml`. */
export function denyRuleSections(): ArchiveElement[] {
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
function shortNameOf(id: string, rules: boolean, file: string, errors: KindErrors): string {
  const text = id.trim();
  const entries = rules ? DENY_RULES : DENY_RULE_GROUPS;
  const found = entries.find((e) => String(e.xmlId) === text || e.shortName === text);
  if (!found) throw errors.invalidValue(`${file}: ${rules ? 'DenyRuleId' : 'DenyRuleGroupId'} '${text}' names no built-in deny ${rules ? 'rule' : 'rule group'}`);
  return found.shortName;
}

/** A flag's text: `true` or `false` in any case (Python writes `True`). @throws `errors.invalidValue` otherwise. */
function flagOf(parent: ArchiveElement, name: string, fallback: boolean, file: string, errors: KindErrors): boolean {
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
 * @throws `errors.invalidValue` for an unknown id or a flag that is no boolean.
 */
export function usageIn(item: ArchiveElement, file: string, errors: KindErrors): Map<string, DenyRuleUsage> {
  const found = new Map<string, DenyRuleUsage>();
  const visit = (el: ArchiveElement): void => {
    for (const [idElement, rules] of [
      ['DenyRuleGroupId', false],
      ['DenyRuleId', true],
    ] as const) {
      const id = childNamed(el, idElement);
      if (id !== undefined && childNamed(el, 'Enabled') !== undefined) {
        found.set(shortNameOf(id.text, rules, file, errors), { enabled: flagOf(el, 'Enabled', true, file, errors), logOnly: flagOf(el, 'LogOnly', false, file, errors) });
      }
    }
    el.children.forEach(visit);
  };
  visit(item);
  return found;
}

/** The mapping's `ObjectArchive.usage`. */
export const denyRuleArchive: ArchiveUsage = {
  elements: (obj) => [usageElement(obj)],
  sections: denyRuleSections,
  read: usageIn,
  stored: storedUsage,
};

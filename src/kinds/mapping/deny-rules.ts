/**
 * The built-in deny rule groups and rules (docs/gateway-api.md "Deny rules"): read-only,
 * identified by their short names (`SQLI_PARAM_VALUE`, `SQL_001a`), and a mapping's use of
 * them (enabled / log-only per group and per rule, enabled and not log-only by default).
 * The set is small and illustrative, not a real gateway's full catalogue. Each entry also
 * has the negative numeric id the export archives use (`DenyRuleId`, `DenyRuleGroupId`).
 * The mapping kind's emulator hooks serve them (`routes`) and carry them in its archives.
 */
import type { Json, JsonObject, KindCall, KindRoute, StoredObject } from '../emulator-hooks.js';

/** How a mapping uses one deny rule group or rule (kept in `StoredObject.denyRuleUsage`). */
export interface DenyRuleUsage {
  readonly enabled: boolean;
  readonly logOnly: boolean;
  /** A built-in group's exceptions, whole (`{enabled, parameterNamePattern | headerNamePattern}` items); none when absent. */
  readonly exceptions?: readonly Json[];
}

/** One built-in deny rule. */
export interface BuiltInDenyRule {
  readonly shortName: string;
  /** The rule's name without the `(default SHORTNAME)` prefix. */
  readonly title: string;
  /** The id in the export archives. */
  readonly xmlId: number;
}

/** One built-in deny rule group with its rules. */
export interface BuiltInDenyRuleGroup {
  readonly shortName: string;
  readonly name: string;
  readonly xmlId: number;
  readonly rules: readonly BuiltInDenyRule[];
}

/** A group; a rule's archive id is given (`[short, title, id]`) or derived from the group's. */
function group(shortName: string, name: string, xmlId: number, rules: readonly (readonly [string, string] | readonly [string, string, number])[]): BuiltInDenyRuleGroup {
  return { shortName, name, xmlId, rules: rules.map(([short, title, id], i) => ({ shortName: short, title, xmlId: id ?? xmlId * 100 - i - 1 })) };
}

/** The built-in groups, in the order the API lists them. */
export const DENY_RULE_GROUPS: readonly BuiltInDenyRuleGroup[] = [
  group('SQLI_PARAM_VALUE', 'SQL Injection (parameter values)', -301, [
    ['SQL_001a', 'SQL injection keywords in parameter values'],
    ['SQL_001b', 'SQL comment sequences in parameter values'],
  ]),
  group('SQLI_PARAM_NAME', 'SQL Injection (parameter names)', -302, [['SQL_002a', 'SQL injection keywords in parameter names']]),
  group('XSS_PARAM_VALUE', 'Cross-Site Scripting (parameter values)', -303, [
    ['XSS_001a', 'Script tags in parameter values'],
    ['XSS_001b', 'Event handler attributes in parameter values'],
  ]),
  group('PATH_TRAVERSAL', 'Path traversal (path)', -304, [['PT_001a', 'Directory traversal sequences in the path']]),
  // The archive ids real clients' scripts name (docs/gateway-api.md "Export and import": a
  // rule is found in alec_table.xml by its `DenyRuleId`, e.g. -2170 for TI_001a).
  group('TI_PARAM_VALUE', 'Technology-independent attacks (parameter values)', -30028, [
    ['TI_001a', 'Generic injection patterns in parameter values', -2170],
    ['TI_001d', 'JSON injection patterns in parameter values', -2202],
  ]),
];

/** Every built-in rule with its group. */
export const DENY_RULES: readonly (BuiltInDenyRule & { readonly group: BuiltInDenyRuleGroup })[] = DENY_RULE_GROUPS.flatMap((g) =>
  g.rules.map((r) => ({ ...r, group: g })),
);

/** The default use of a group or rule by a mapping. */
export const DEFAULT_USAGE: DenyRuleUsage = { enabled: true, logOnly: false };

/** The use of the group or rule `shortName` by `mapping`. */
export function usageOf(mapping: StoredObject, shortName: string): DenyRuleUsage {
  return mapping.denyRuleUsage?.[shortName] ?? DEFAULT_USAGE;
}

/** True when `u` is the default use (enabled, not log-only, no exceptions): it is then not stored. */
export function isDefaultUsage(u: DenyRuleUsage): boolean {
  return u.enabled === DEFAULT_USAGE.enabled && u.logOnly === DEFAULT_USAGE.logOnly && (u.exceptions ?? []).length === 0;
}

/**
 * The stored form of the uses `given` (by short name): the default entries left out;
 * undefined when all are default. The flags come from `given` (an archive's `Enabled` and
 * `LogOnly`); what an archive does not carry, a group's exceptions and the use of custom
 * groups and rules, is kept from `kept` (the replaced mapping's stored use).
 */
export function storedUsage(given: ReadonlyMap<string, DenyRuleUsage>, kept?: Readonly<Record<string, DenyRuleUsage>>): Record<string, DenyRuleUsage> | undefined {
  const all = new Map<string, DenyRuleUsage>(Object.entries(kept ?? {}).filter(([k]) => !given.has(k)));
  for (const [k, u] of given) {
    const exceptions = kept?.[k]?.exceptions;
    all.set(k, exceptions ? { ...u, exceptions } : u);
  }
  const stored = [...all].filter(([, u]) => !isDefaultUsage(u));
  return stored.length === 0 ? undefined : Object.fromEntries(stored.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The `(default SHORTNAME) title` name of a built-in rule, as the API and the archives give it. */
export function ruleName(rule: BuiltInDenyRule): string {
  return `(default ${rule.shortName}) ${rule.title}`;
}

function groupResource(g: BuiltInDenyRuleGroup): JsonObject {
  return {
    type: 'deny-rule-group',
    id: g.shortName,
    attributes: { name: g.name, shortName: g.shortName, denyRules: g.rules.map((r) => ({ name: ruleName(r), shortNames: [r.shortName] })) },
  };
}

function ruleResource(r: (typeof DENY_RULES)[number]): JsonObject {
  return { type: 'deny-rule', id: r.shortName, attributes: { name: ruleName(r), shortName: r.shortName, denyRuleGroup: r.group.shortName } };
}

function oneGroup(call: KindCall): Json {
  const id = call.param('shortName');
  const found = DENY_RULE_GROUPS.find((g) => g.shortName === id);
  if (!found) throw call.errors.notFound(`deny-rule-group ${id}`);
  return groupResource(found);
}

function oneRule(call: KindCall): Json {
  const id = call.param('shortName');
  const found = DENY_RULES.find((r) => r.shortName === id);
  if (!found) throw call.errors.notFound(`deny-rule ${id}`);
  return ruleResource(found);
}

/** The read-only routes of the built-in deny rule groups and rules (placed before the generic resource routes). */
export const denyRuleRoutes: readonly KindRoute[] = [
  { method: 'GET', pattern: ['configuration', 'deny-rule-groups'], modifying: false, handle: () => DENY_RULE_GROUPS.map(groupResource) },
  { method: 'GET', pattern: ['configuration', 'deny-rule-groups', ':shortName'], modifying: false, handle: oneGroup },
  { method: 'GET', pattern: ['configuration', 'deny-rules'], modifying: false, handle: () => DENY_RULES.map(ruleResource) },
  { method: 'GET', pattern: ['configuration', 'deny-rules', ':shortName'], modifying: false, handle: oneRule },
];

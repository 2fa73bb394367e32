/**
 * The XML of the export archives (docs/gateway-api.md "Export and import"), in the shape
 * real clients read and edit: `alec_full.xml` with root `ConfigRoot`, its first node's
 * `Nodes/Node/HostName`, the archived objects (`Mappings/Mapping[@Id]/Name`) with their
 * allow rules and what their kind's `ObjectArchive.usage` adds (src/kinds/<kind>/), then that
 * hook's sections; and the `alec_table.xml` of one kind's objects, whose `Name` edits are read
 * back here (and the usage edits by the hook). Each object in `alec_table.xml` also carries the emulator's own complete data,
 * its attributes as JSON text in `GwopsAttributes`; the configuration archive carries it in
 * a JSON entry of its own (routes-transfer.ts).
 */
import type { ObjectArchive } from '../kinds/emulator-hooks.js';
import type { Json, StoredObject } from './model.js';
import { errors } from './responses.js';
import type { XmlElement } from './xml.js';
import { childNamed, element } from './xml.js';

/** The element of an object in `alec_table.xml` that holds the emulator's own attribute JSON. */
export const OWN_ATTRIBUTES = 'GwopsAttributes';

/** `DefaultId` of the built-in "no restriction" IP pattern of an allow rule. */
export const NO_RESTRICTION_DEFAULT_ID = '-100';

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

/**
 * The element of one archived object: `<{itemElement} Id>` with `Name`, its `AllowRules` and
 * what the kind's `ObjectArchive.usage` adds (a mapping's deny rule usage) when the archive declares them, and `GwopsAttributes` when `ownData`.
 */
export function objectElement(obj: StoredObject, archive: ObjectArchive, ownData: boolean): XmlElement {
  const name = typeof obj.attributes.name === 'string' ? obj.attributes.name : '';
  return element(
    archive.itemElement,
    [
      element('Name', name),
      ...(archive.allowRulesAttribute === undefined ? [] : [allowRules(obj, archive.allowRulesAttribute)]),
      ...(archive.usage?.elements(obj) ?? []),
      ...(ownData ? [element(OWN_ATTRIBUTES, JSON.stringify(obj.attributes))] : []),
    ],
    { Id: obj.id },
  );
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

/**
 * The emulator's validator (docs/gateway-api.md "Validator messages": its rules, and a
 * message of severity ERROR prevents activation). A pure function of a configuration's
 * content, recomputed on every `GET /configuration/validator-messages`.
 */
import { KINDS, kindOf } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import type { Emit, RuleContext } from '../kinds/emulator-hooks.js';
import { referenceAttributes } from '../schema/index.js';
import { attributeReferences } from '../schema/references.js';
import type { ConfigContent, ModelContext, StoredObject, ValidatorMessage } from './model.js';

const SEVERITY_RANK: Readonly<Record<ValidatorMessage['severity'], number>> = { ERROR: 0, WARNING: 1, INFO: 2 };

/** `mapping 'shop'`, or `mapping with id 4` when the object has no name (the kind's `label`). */
function label(object: StoredObject): string {
  const words = kindOf(object.type).emulator.label;
  const name = object.attributes.name;
  return typeof name === 'string' && name !== '' ? `${words} '${name}'` : `${words} with id ${object.id}`;
}

/** What every kind's rules get: the variant, {@link label}, links to existing objects, and whether an object exists. */
function ruleContext(content: ConfigContent, context: ModelContext): RuleContext {
  return {
    variant: context.variant,
    label,
    linked(object, name) {
      const def = kindOf(object.type).relationships[name];
      if (!def) return false;
      const ids = object.relationships[name];
      const targets = content.objects[def.target];
      return ids !== undefined && ids.some((id) => targets.has(id));
    },
    exists: (type, id) => content.objects[type].has(id),
  };
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A message with its sort key computed once (sorting 40,000 messages compares ~600,000 times). */
interface Keyed {
  readonly message: ValidatorMessage;
  readonly rank: number;
  /** The id as a number when it holds an integer (ids are strings holding integers), else NaN. */
  readonly idNumber: number;
}

function keyed(message: ValidatorMessage): Keyed {
  const id = message.model.id;
  const n = /^-?\d+$/.test(id) ? Number(id) : NaN;
  return { message, rank: SEVERITY_RANK[message.severity], idNumber: n };
}

/** By severity (ERROR first), model type, model id (numerically when both are integers), code. */
function compareKeyed(a: Keyed, b: Keyed): number {
  const am = a.message;
  const bm = b.message;
  return (
    a.rank - b.rank ||
    compareText(am.model.type, bm.model.type) ||
    (Number.isNaN(a.idNumber) || Number.isNaN(b.idNumber) ? compareText(am.model.id, bm.model.id) : a.idNumber - b.idNumber) ||
    compareText(am.code, bm.code)
  );
}

/** `UNKNOWN_IP_ADDRESS_LIST` for an ip-address-list: the code of a reference to a missing object of `target`. */
export function unknownReferenceCode(target: ResourceType): string {
  return `UNKNOWN_${target.toUpperCase().replace(/-/g, '_')}`;
}

/**
 * `UNKNOWN_<TARGET>` (ERROR, one per object and target kind, e.g. `UNKNOWN_IP_ADDRESS_LIST`,
 * `UNKNOWN_OPENAPI_DOCUMENT`): an attribute that holds another object's id (schema mark
 * `x-gwops-reference`, docs/gateway-api.md "IP address lists") holds an id that no object
 * of that kind has. Every kind's reference attributes, from the schemas.
 */
function unknownReferences(content: ConfigContent, out: ValidatorMessage[]): void {
  for (const kind of KINDS) {
    if (referenceAttributes(kind.type).length === 0) continue;
    for (const object of content.objects[kind.type].values()) {
      const missing = new Map<ResourceType, string[]>();
      for (const reference of attributeReferences(kind.type, object.attributes)) {
        if (content.objects[reference.target].has(String(reference.value))) continue;
        const ids = missing.get(reference.target) ?? [];
        ids.push(`${reference.value} (${reference.segments.join('.')})`);
        missing.set(reference.target, ids);
      }
      for (const [target, ids] of missing) {
        const words = kindOf(target).emulator.label;
        out.push({
          severity: 'ERROR',
          code: unknownReferenceCode(target),
          title: `Reference to an unknown ${words}`,
          detail: `The ${label(object)} names ${words} ${ids.join(', ')}, which does not exist.`,
          model: { type: object.type, id: object.id },
        });
      }
    }
  }
}

/**
 * Validator messages of a configuration (docs/gateway-api.md "Validator messages"),
 * recomputed on each call.
 *
 * The rules are the kinds' own (`validator` of each kind's emulator hooks,
 * `src/kinds/<kind>/emulator.ts`, whose doc comments describe them), run on the objects of
 * their kind, and one rule for every kind: an attribute naming a missing object
 * (`UNKNOWN_<TARGET>`, {@link unknownReferences}). A kind's message gets the title its kind
 * gives the code; rules name objects with the kind's `label` and read links through
 * `RuleContext.linked`.
 *
 * @returns the messages sorted by severity (ERROR, WARNING, INFO), model type, model id
 *   (numerically), code. Linear in the number of objects, apart from the final sort.
 *   Ids for the API: {@link validatorMessageId}.
 */
export function validatorMessages(content: ConfigContent, context: ModelContext): ValidatorMessage[] {
  const out: ValidatorMessage[] = [];
  const shared = ruleContext(content, context);
  for (const kind of KINDS) {
    const rules = kind.emulator.validator;
    if (!rules) continue;
    const emit: Emit = (severity, code, object, detail) => {
      const title = rules.titles[code];
      if (title === undefined) throw new Error(`validator code ${code} of ${kind.type} has no title`);
      out.push({ severity, code, title, detail, model: { type: object.type, id: object.id } });
    };
    rules.check(content.objects[kind.type], shared, emit);
  }
  unknownReferences(content, out);
  return out.map(keyed).sort(compareKeyed).map((k) => k.message);
}

/**
 * A deterministic id for a validator message, unique within one result of
 * {@link validatorMessages} (one message per code and object): `<code>-<type>-<id>`,
 * e.g. `MAPPING_WITHOUT_VIRTUAL_HOST-mapping-4`.
 */
export function validatorMessageId(message: ValidatorMessage): string {
  return `${message.code}-${message.model.type}-${message.model.id}`;
}

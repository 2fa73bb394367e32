/**
 * The item defaults in the schemas (`default` of a list's `items`): every list of objects
 * of every kind has them, they fit the item schema, and an item schema of its own (not a
 * shared pattern object, whose members vary by place) has a default for every member, so
 * that no member of a declared item escapes the comparison (src/engine/item-defaults.ts).
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import type { JsonSchema } from '../../src/schema/index.js';
import { deref, documentSchema, itemDefaultsRules, walkAttributes } from '../../src/schema/index.js';

const ajv = new Ajv2020.default({ strict: false });

describe('item defaults of every list of objects', () => {
  for (const kind of KINDS) {
    it(`${kind.type}: each list of objects has item defaults that fit its items`, () => {
      const root = documentSchema(kind.type);
      const lists = walkAttributes(kind.type).filter((p) => {
        const items = deref(p.schema, root).items;
        return items !== undefined && deref(items, root).type === 'object';
      });
      const rules = itemDefaultsRules(kind.type);
      expect(rules.map((r) => r.segments.join('.')).sort()).toEqual(lists.map((l) => l.segments.join('.')).sort());
      for (const list of lists) {
        const raw = deref(list.schema, root).items as JsonSchema;
        const items = deref(raw, root);
        const defaults = rules.find((r) => r.segments.join('.') === list.segments.join('.'))?.defaults;
        const validate = ajv.compile({ ...items, $defs: root.$defs });
        expect(validate(defaults), `${list.path}[]: ${ajv.errorsText(validate.errors)}`).toBe(true);
        if (raw.$ref === undefined) expect(Object.keys(defaults ?? {}).sort(), list.path).toEqual(Object.keys(items.properties ?? {}).sort());
      }
    });
  }
});

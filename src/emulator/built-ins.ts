/**
 * Built-in entities (docs/gateway-api.md "Documents and ids"): the objects a gateway ships
 * with, listed with negative ids and never changed. Each kind declares its own in its
 * emulator hooks (`builtIns`); a fresh emulator (option `builtIns`) and every empty
 * configuration it loads start with them.
 */
import { KINDS, kindExistsIn } from '../kinds/index.js';
import type { Variant } from '../kinds/index.js';
import { isBuiltInId } from '../api/documents.js';
import type { ConfigContent, JsonObject } from './model.js';
import { emptyContent } from './model.js';
import { addLinks, relationshipOf } from './links.js';
import { checkAttributes, newObjectAttributes } from './pure.js';

/**
 * A fresh content holding the built-ins of every kind that exists in `variant`, linked as
 * the kinds declare.
 * @throws Error when a kind declares a built-in the schema refuses or a link to a missing
 * built-in (a programming error).
 */
export function builtInContent(variant: Variant): ConfigContent {
  const content = emptyContent();
  const kinds = KINDS.filter((kind) => kindExistsIn(kind, variant));
  for (const kind of kinds) {
    for (const builtIn of kind.emulator.builtIns ?? []) {
      if (!isBuiltInId(builtIn.id)) throw new Error(`built-in ${kind.type} ${builtIn.id} needs a negative id`);
      const check = checkAttributes(kind.type, variant, builtIn.given);
      if (!check.ok) throw new Error(`built-in ${kind.type} ${builtIn.id}: ${check.detail}`);
      const attributes: JsonObject = newObjectAttributes(kind.type, variant, check.value);
      content.objects[kind.type].set(builtIn.id, { type: kind.type, id: builtIn.id, attributes, relationships: {} });
    }
  }
  for (const kind of kinds) {
    for (const builtIn of kind.emulator.builtIns ?? []) {
      for (const [name, ids] of Object.entries(builtIn.links ?? {})) {
        const def = relationshipOf(kind.type, name, variant);
        if (!def) continue;
        for (const id of ids) {
          if (!content.objects[def.target].has(id)) throw new Error(`built-in ${kind.type} ${builtIn.id} links to a missing ${def.target} ${id}`);
        }
        addLinks(content, kind.type, builtIn.id, def, ids);
      }
    }
  }
  return content;
}

/** The content of an empty configuration: the built-ins when the emulator has them, else nothing. */
export function initialContent(variant: Variant, builtIns: boolean): ConfigContent {
  return builtIns ? builtInContent(variant) : emptyContent();
}

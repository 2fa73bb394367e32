/**
 * Predicates compiled from default values: whether a JSON value is deeply equal to one
 * fixed value, in straight-line code.
 *
 * Export compares every attribute of every live object with its server default
 * (src/export/attributes.ts); most are equal (a mapping holds about 430 values, a handful
 * of them set). Walking each value with its schema and the default tree costs a keyed,
 * megamorphic lookup per member; a predicate compiled for one default reads each member
 * by its literal name, so the engine caches each read for the objects' shared shape.
 */

/** Whether a JSON value equals the value the predicate was compiled from. */
export type EqualsValue = (value: unknown) => boolean;

/** Default values (JSON) with more members than this are not compiled (the generated code would be large). */
const MAX_MEMBERS = 5000;

/**
 * A predicate telling whether a JSON value equals `expected` ({@link jsonEqual} of
 * src/export/attributes.ts: lists item by item, objects key by key in any order, scalars by
 * `===`), or undefined when `expected` is not plain JSON or too large to compile, or when the
 * process may not generate code.
 */
export function compileEquals(expected: unknown): EqualsValue | undefined {
  const lines: string[] = [];
  let names = 0;
  let members = 0;
  const fresh = (): string => `v${++names}`;
  // Appends the checks that `name` holds `value`; false when `value` is not plain JSON.
  const emit = (name: string, value: unknown): boolean => {
    if (++members > MAX_MEMBERS) return false;
    if (value === null || typeof value === 'boolean' || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
      lines.push(`if (${name} !== ${JSON.stringify(value)}) return false;`);
      return true;
    }
    if (Array.isArray(value)) {
      lines.push(`if (!Array.isArray(${name}) || ${name}.length !== ${value.length}) return false;`);
      return value.every((item: unknown, i) => {
        const itemName = fresh();
        lines.push(`const ${itemName} = ${name}[${i}];`);
        return emit(itemName, item);
      });
    }
    if (typeof value !== 'object') return false;
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return false;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    // `__proto__` cannot be read by its literal name.
    if (keys.includes('__proto__')) return false;
    const count = fresh();
    lines.push(`if (typeof ${name} !== 'object' || ${name} === null || Array.isArray(${name})) return false;`);
    // Each expected member is read and must hold a JSON value (never undefined, nor one of Object.prototype's
    // functions), so it is there; counting the members rules out any other.
    lines.push(`let ${count} = 0; for (const k in ${name}) ${count}++;`, `if (${count} !== ${keys.length}) return false;`);
    return keys.every((key) => {
      const memberName = fresh();
      lines.push(`const ${memberName} = ${name}[${JSON.stringify(key)}];`);
      return emit(memberName, record[key]);
    });
  };
  if (!emit('v0', expected)) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code holds only literals from JSON.stringify and generated names
    return new Function('v0', `${lines.join('\n')}\nreturn true;`) as EqualsValue;
  } catch {
    // Code generation is off (node --disallow-code-generation-from-strings): the values are compared by walking them.
    return undefined;
  }
}

/**
 * Setting a member by a name read from outside (JSON, YAML, a gateway's answer): `__proto__`
 * is a name like any other there, and `JSON.parse` makes it an own member. Assigned, it
 * would set the object's prototype instead.
 */

/** Sets `object[key]` to `value` as an own, enumerable, writable member, `__proto__` included. */
export function setOwnMember<T>(object: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * A new object with the members `keys[0]` to `keys[count - 1]` of `record`, in that order:
 * the start of a copy begun only at the first member that changed.
 */
export function copyOfFirst<T>(record: Readonly<Record<string, T>>, keys: readonly string[], count: number): Record<string, T> {
  const out: Record<string, T> = {};
  for (let i = 0; i < count; i++) {
    const key = keys[i] as string;
    setOwnMember(out, key, record[key] as T);
  }
  return out;
}

/**
 * The own member `key` of `record`, or undefined: never an inherited one (`constructor`,
 * `toString` or `__proto__` read from a plain object are Object.prototype's).
 */
export function ownMember<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

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

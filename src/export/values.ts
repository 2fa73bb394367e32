/**
 * The JSON values an export handles: plain objects, deep equality, the {@link SecretSlot}
 * that stands where a secret was until it is written as `{ fromEnv }`, and the
 * {@link NoSecret} where a write-only secret takes none.
 */

/** A plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof SecretSlot) && !(value instanceof NoSecret);
}

/**
 * Where a write-only secret takes no value for this object (KindDefinition `takesWriteOnly`:
 * a certificate's `passphrase` when its key is not encrypted): no `{ fromEnv }` is written
 * for it, nor anything else.
 */
export class NoSecret {}

/** Where a secret value was: the manifest reads it from an environment variable instead. */
export class SecretSlot {
  constructor(
    /** False when the gateway returns the value (a secret that is readable): the variable must then hold the live value. */
    readonly writeOnly: boolean,
  ) {}
}

/** Deep equality of JSON values (lists item by item, objects key by key). Plain loops: it runs on every attribute of every exported object. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const k of keys) if (!Object.hasOwn(b, k) || !jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/**
 * `${VAR}` and `${VAR:-default}` substitution in string values (README.md "Manifests").
 * `$${` stands for a literal `${`, whatever follows it. Keys are never substituted. A value that is one reference
 * and nothing else (`port: ${PORT:-8080}`) is recorded in `whole`: schema validation then
 * gives it the type the schema expects there ({@link typedReference}).
 */
import { parse } from 'yaml';
import { setOwnMember } from '../core/own-member.js';

/** A variable reference that could not be resolved. */
export interface UnsetVariable {
  readonly name: string;
  /** Pointer segments of the string value that uses it. */
  readonly path: readonly string[];
}

/** Result of {@link substituteVariables}. */
export interface Substitution {
  /** The value with every resolvable reference replaced (unset ones left as written). */
  readonly value: unknown;
  readonly unset: UnsetVariable[];
  /** Pointers (joined with `/`) of strings that contained at least one reference. */
  readonly substituted: Set<string>;
  /** Pointers (joined with `/`) of strings that were exactly one reference, `${NAME}` or `${NAME:-default}`. */
  readonly whole: Set<string>;
}

/** A whole value that is one reference (not an escaped `$${`). */
const WHOLE = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/;

/** The JSON Schema types {@link typedReference} converts to. */
export type ScalarType = 'integer' | 'number' | 'boolean' | 'null';

/**
 * The value of a substituted whole reference as the type a schema expects: the text read
 * as a YAML 1.2 core scalar, as if it had been written in the manifest in place of the
 * reference (`5` an integer, `2.5` a number, `true` a boolean), when that gives one of
 * `expected`; otherwise undefined (the schema then reports the string).
 */
export function typedReference(text: string, expected: readonly ScalarType[]): unknown {
  if (text.trim() === '' || /[\n\r]/.test(text)) return undefined;
  let value: unknown;
  try {
    value = parse(text, { schema: 'core' });
  } catch {
    return undefined;
  }
  const fits = (type: ScalarType): boolean => {
    switch (type) {
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'null':
        return value === null;
    }
  };
  return expected.some(fits) ? value : undefined;
}

const isNameStart = (c: string): boolean => (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c === '_';
const isNameChar = (c: string): boolean => isNameStart(c) || (c >= '0' && c <= '9');

/**
 * `text` with each escaped `$${` as `${` and each reference `${NAME}` / `${NAME:-default}`
 * replaced by `replace(name, default)`, left to right (what
 * `/(\$\$\{)|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g` finds), in linear time: a
 * regular expression scans to the end again for every `${NAME:-` without a closing `}`.
 */
function replaceReferences(text: string, replace: (name: string, fallback: string | undefined) => string): string {
  let out = '';
  let i = 0;
  // The next `}` at or after a default's start: undefined when not looked up yet, -1 when none is left.
  let close: number | undefined;
  for (let at = text.indexOf('$', i); at >= 0; at = text.indexOf('$', i)) {
    if (text.startsWith('$${', at)) {
      out += `${text.slice(i, at)}\${`;
      i = at + 3;
      continue;
    }
    let end = at + 2;
    if (text.charAt(at + 1) === '{' && isNameStart(text.charAt(end))) {
      while (isNameChar(text.charAt(end))) end++;
      const name = text.slice(at + 2, end);
      if (text.charAt(end) === '}') {
        out += text.slice(i, at) + replace(name, undefined);
        i = end + 1;
        continue;
      }
      if (text.startsWith(':-', end)) {
        if (close === undefined || (close >= 0 && close < end)) close = text.indexOf('}', end + 2);
        if (close >= 0) {
          out += text.slice(i, at) + replace(name, text.slice(end + 2, close));
          i = close + 1;
          continue;
        }
      }
    }
    out += text.slice(i, at + 1);
    i = at + 1;
  }
  return out + text.slice(i);
}

/**
 * Replaces `${NAME}` (value of `env.NAME`; unset → reported) and `${NAME:-default}`
 * (`default` when `NAME` is unset or empty) in every string of `value`. Returns a new value;
 * the input is not modified. Strings without `${` are returned as they are (no copying).
 */
export function substituteVariables(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
): Substitution {
  const unset: UnsetVariable[] = [];
  const substituted = new Set<string>();
  const whole = new Set<string>();
  const visit = (node: unknown, path: string[]): unknown => {
    if (typeof node === 'string') {
      if (!node.includes('${')) return node;
      substituted.add(path.join('/'));
      if (WHOLE.test(node)) whole.add(path.join('/'));
      return replaceReferences(node, (name, fallback) => {
        // Variables hold strings: `constructor` or `__proto__` name no variable, whatever an object inherits.
        const held: unknown = env[name];
        const v = typeof held === 'string' ? held : undefined;
        if (fallback !== undefined) return v === undefined || v === '' ? fallback : v;
        if (v === undefined) {
          unset.push({ name, path: [...path] });
          return '';
        }
        return v;
      });
    }
    if (Array.isArray(node)) {
      const items: unknown[] = node;
      let copy: unknown[] | undefined;
      items.forEach((item, i) => {
        const next = visit(item, [...path, String(i)]);
        if (next !== item) {
          copy ??= [...items];
          copy[i] = next;
        }
      });
      return copy ?? node;
    }
    if (node !== null && typeof node === 'object') {
      let copy: Record<string, unknown> | undefined;
      for (const [k, item] of Object.entries(node)) {
        if (item === null || (typeof item !== 'object' && typeof item !== 'string')) continue;
        path.push(k);
        const next = visit(item, path);
        path.pop();
        if (next !== item) {
          copy ??= { ...(node as Record<string, unknown>) };
          setOwnMember(copy, k, next);
        }
      }
      return copy ?? node;
    }
    return node;
  };
  const result = visit(value, []);
  return { value: result, unset, substituted, whole };
}

/**
 * `text` written so that {@link substituteVariables} reads it back unchanged: every `${`
 * becomes `$${` (a run of `$` before `{` gains one `$`, which the reader removes again).
 */
export function escapeVariables(text: string): string {
  return text.includes('${') ? text.replaceAll('${', () => '$${') : text;
}

/**
 * The `${NAME}` and `${NAME:-default}` references (not `$${…}`) in the strings of `value`
 * whose NAME is in `names`, with the pointer segments of the string that holds each.
 * The loader refuses them for the variables that hold an API key or a secret (README.md
 * "Manifests"); `value` is not modified.
 */
export function referencesTo(value: unknown, names: ReadonlySet<string>): UnsetVariable[] {
  const found: UnsetVariable[] = [];
  if (names.size === 0) return found;
  const visit = (node: unknown, path: string[]): void => {
    if (typeof node === 'string') {
      if (!node.includes('${')) return;
      replaceReferences(node, (name) => {
        if (names.has(name)) found.push({ name, path: [...path] });
        return '';
      });
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...path, String(i)]));
    } else if (node !== null && typeof node === 'object') {
      for (const [k, item] of Object.entries(node)) visit(item, [...path, k]);
    }
  };
  visit(value, []);
  return found;
}

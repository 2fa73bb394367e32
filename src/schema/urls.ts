/**
 * Attributes that hold an absolute URL the gateway connects to (schema mark `x-gwops-url`,
 * e.g. a remote JSON web key set's `url`): gwops never writes a user name or password in
 * one (docs/manifest-reference.md "URLs with credentials"). Manifests that hold one are
 * refused (src/manifest/url-credentials.ts); a live value that holds one is masked as it
 * enters live state, so that no plan, drift report or export shows it. Pure.
 */
import type { ResourceType } from '../kinds/index.js';
import { urlAttributes } from './index.js';

/** One URL value found in an object's attributes. */
export interface UrlValue {
  /** JSON pointer segments relative to `attributes` (array indexes as strings). */
  readonly segments: readonly string[];
  readonly value: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every string value of a URL attribute of `attributes` of an object of `type`, in schema order. */
export function urlValues(type: ResourceType, attributes: Readonly<Record<string, unknown>>): UrlValue[] {
  const out: UrlValue[] = [];
  const visit = (node: unknown, segments: readonly string[], depth: number, at: readonly string[]): void => {
    if (depth === segments.length) {
      if (typeof node === 'string') out.push({ segments: at, value: node });
      return;
    }
    const segment = segments[depth] ?? '';
    if (segment === '*') {
      if (Array.isArray(node)) node.forEach((item: unknown, i) => visit(item, segments, depth + 1, [...at, String(i)]));
    } else if (isRecord(node) && Object.hasOwn(node, segment)) visit(node[segment], segments, depth + 1, [...at, segment]);
  };
  for (const path of urlAttributes(type)) visit(attributes, path.segments, 0, []);
  return out;
}

/** The text that stands for a user name and password in a masked URL. */
export const MASKED_USERINFO = '***';

/**
 * Whether `url` holds a user name or password: the WHATWG URL parser's, or, for a text
 * that is no URL, an `@` between `//` and the next `/`.
 */
export function hasUrlCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    const start = url.indexOf('//');
    if (start === -1) return false;
    const slash = url.indexOf('/', start + 2);
    const at = url.indexOf('@', start + 2);
    return at !== -1 && (slash === -1 || at < slash);
  }
}

/** `url` with its user name and password replaced by {@link MASKED_USERINFO} (the same text when it holds none). */
export function maskUrlCredentials(url: string): string {
  if (!hasUrlCredentials(url)) return url;
  const start = url.indexOf('//') + 2;
  let end = url.indexOf('/', start);
  if (end === -1) end = url.length;
  const at = url.lastIndexOf('@', end);
  return `${url.slice(0, start)}${MASKED_USERINFO}${url.slice(at)}`;
}

/**
 * `attributes` with the user name and password of every URL attribute masked
 * ({@link maskUrlCredentials}); the same object when none holds one. Only the containers on
 * a masked value's path are copied.
 */
export function maskedUrls<T extends Readonly<Record<string, unknown>>>(type: ResourceType, attributes: T): T {
  const found = urlValues(type, attributes).filter((u) => hasUrlCredentials(u.value));
  if (found.length === 0) return attributes;
  const root: Record<string, unknown> = { ...attributes };
  for (const { segments, value } of found) {
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = segments[i] ?? '';
      const child: unknown = Array.isArray(node) ? node[Number(key)] : node[key];
      const copy: Record<string, unknown> | unknown[] = Array.isArray(child) ? [...(child as unknown[])] : { ...(child as Record<string, unknown>) };
      if (Array.isArray(node)) node[Number(key)] = copy;
      else node[key] = copy;
      node = copy;
    }
    const last = segments[segments.length - 1] ?? '';
    if (Array.isArray(node)) node[Number(last)] = maskUrlCredentials(value);
    else node[last] = maskUrlCredentials(value);
  }
  return root as T;
}

/** True when `segments` (array indexes as numbers in strings) is the path of a URL attribute of `type`. */
export function isUrlPath(type: ResourceType, segments: readonly string[]): boolean {
  return urlAttributes(type).some((path) => path.segments.length === segments.length && path.segments.every((s, i) => s === segments[i] || (s === '*' && /^\d+$/.test(segments[i] ?? ''))));
}

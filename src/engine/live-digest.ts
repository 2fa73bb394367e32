/**
 * The digest of the live state a plan was computed from (`Plan.liveDigest`), which
 * `apply --plan` recomputes to find out whether the gateway changed since the plan was made
 * (docs/architecture.md "Saved plans"). Pure.
 */
import { PURE_DIGESTS } from '../crypto/digest.js';
import type { Digests } from '../crypto/digest.js';
import { KINDS } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import { getAt, isPlainObject, isWriteOnlyPath, mapSecrets, maskValue } from './diff.js';
import type { State } from './model.js';
import { linkKeysOf } from './model.js';
import { sortByCodePoint } from './code-point.js';
import { setOwnMember, ownMember } from '../core/own-member.js';

/**
 * A stable hash of the part of a live state a plan was computed from: every live object's
 * kind, name and id; for objects the manifests declare, the live values at the declared
 * attribute paths (write-only paths skipped, arrays whole) and, when they declare content,
 * the digest of the live content; and every link. Independent of
 * the order of objects, links and keys. What no manifest declares cannot change the plan,
 * so it is left out (this also keeps the digest cheap: hashing 20,000 full mapping trees
 * costs seconds).
 *
 * Without `key` (`sha256:<hex>`), secret values are masked before hashing: a plain digest
 * of a secret could be tested against guesses by anyone who reads the plan file, so none
 * goes in. With `key` (the plan-signing key, which the run that saves a plan and the run
 * that applies it share, whatever API key each uses; `hmac-sha256:<hex>`), it is an
 * HMAC-SHA256 keyed by it that also covers each readable secret value and whether it
 * equals the desired value: a secret changed on the gateway changes the digest, and a
 * reader of the digest who lacks the key learns nothing about any value
 * (docs/architecture.md "Saved plans").
 *
 * `apply --plan` recomputes it with the same `desired` and compares it with
 * {@link Plan.liveDigest}; a different value means the plan may be wrong.
 *
 * `digests` computes the SHA-256 or HMAC: the operations hand in the one on `node:crypto`
 * (src/crypto/node.ts), several times faster over the megabytes of a large
 * configuration than the pure one used when none is given; both give the same hex.
 */
export function liveStateDigest(live: State, desired: State, key?: string, digests: Digests = PURE_DIGESTS): string {
  const hash = key === undefined ? digests.sha256() : digests.hmacSha256(key);
  // The lines are handed to the hash in batches: the digest of their concatenation is the
  // same, and a call per line cost more than hashing it.
  let batch = '';
  const line = (text: string): void => {
    batch += `${text}\n`;
    if (batch.length >= DIGEST_BATCH_CHARS) {
      hash.update(batch);
      batch = '';
    }
  };
  for (const kind of KINDS) {
    const objects = live.objects.get(kind.type);
    if (!objects) continue;
    for (const name of sortByCodePoint([...objects.keys()])) {
      const object = objects.get(name);
      if (!object) continue;
      const declared = desired.objects.get(kind.type)?.get(name);
      const projected = declared ? project(kind.type, declared.attributes, object.attributes) : null;
      const covered =
        key === undefined
          ? maskValue(kind.type, [], projected).value
          : mapSecrets(kind.type, projected, [], (value, at) => ({ value, desired: value === getAt(declared?.attributes, at) }));
      const content = declared?.content ? [object.content?.digest ?? null] : [];
      line(JSON.stringify([kind.type, name, object.id ?? null, object.identityKey ?? null, covered, ...content]));
    }
  }
  for (const linkKey of sortByCodePoint([...linkKeysOf(live.links)])) line(linkKey);
  hash.update(batch);
  return `${key === undefined ? 'sha256' : 'hmac-sha256'}:${hash.hex()}`;
}

/** Characters of digest lines gathered before they are hashed. */
const DIGEST_BATCH_CHARS = 64 * 1024;

/** The live value restricted to the declared shape: declared keys in sorted order; arrays and scalars whole. */
function project(type: ResourceType, declared: unknown, live: unknown): unknown {
  // One path, pushed and popped as the walk goes: nothing below keeps it.
  const path: string[] = [];
  const walk = (d: unknown, l: unknown): unknown => {
    if (!isPlainObject(d) || !isPlainObject(l)) return l ?? null;
    const out: Record<string, unknown> = {};
    for (const key of sortByCodePoint(Object.keys(d))) {
      path.push(key);
      if (!isWriteOnlyPath(type, path)) setOwnMember(out, key, walk(d[key], ownMember(l, key)));
      path.pop();
    }
    return out;
  };
  return walk(declared, live);
}

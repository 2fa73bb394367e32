/**
 * The gateway's variant, read from the version it reports (`GET /system/status/node`)
 * instead of guessed: the mapping of docs/gateway-api.md "Variants" ("Which variant a
 * version is"), and the check that a declared variant (`--variant`, a target's `variant`)
 * agrees with it.
 */
import { ConfigError } from '../core/errors.js';
import type { Variant } from '../kinds/index.js';

/** A variant a run was told to use, and who said so (`--variant`, `variant of target 'prod'`). */
export interface DeclaredVariant {
  readonly variant: Variant;
  readonly source: string;
}

/**
 * The major and minor number of a reported version: `8.6`, `8.6.0`, `8.6.0.1`, `v8.6`,
 * `8.6.0-rc1`, `8.6 (build 42)` all give 8 and 6; `8` gives 8 and 0.
 * @returns undefined when the text does not start with a number
 */
export function parseVersion(version: string): { readonly major: number; readonly minor: number } | undefined {
  const match = /^\s*v?(\d{1,4})(?:\.(\d{1,4}))?(?![\d])/i.exec(version);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? '0') };
}

/**
 * The variant of a reported version (docs/gateway-api.md "Variants"): 7.x and earlier is
 * `earliest`; 8.0 to 8.5 is `middle`; 8.6 and later (9.x included) is `latest`. A gateway
 * that reports no version is a 7.x gateway (they have none), so `earliest`.
 * @returns undefined when a version is given that is not a number (`unknown`)
 */
export function variantOfVersion(version: string | undefined): Variant | undefined {
  if (version === undefined) return 'earliest';
  const parsed = parseVersion(version);
  if (!parsed) return undefined;
  if (parsed.major < 8) return 'earliest';
  if (parsed.major === 8 && parsed.minor < 6) return 'middle';
  return 'latest';
}

/**
 * The variant to use with a gateway that reports `version`: the variant of the version;
 * a declared variant must agree with it. A version that is no number is left to the
 * declared variant.
 * @throws ConfigError when the declared variant contradicts the version (naming both), or
 *   when the version is no number and no variant is declared
 */
export function gatewayVariant(version: string | undefined, declared: DeclaredVariant | undefined): Variant {
  const reported = version === undefined ? 'reports no version (a 7.x gateway)' : `reports version ${version}`;
  const found = variantOfVersion(version);
  if (found === undefined) {
    if (declared) return declared.variant;
    throw new ConfigError(`the gateway ${reported}, which names no known variant; pass --variant earliest, middle or latest`);
  }
  if (declared && declared.variant !== found) {
    throw new ConfigError(
      `the gateway ${reported}, which is the ${found} variant, but ${declared.source} says ${declared.variant}; ` +
        `nothing was changed: correct ${declared.source}, or leave it out to use the gateway's variant`,
    );
  }
  return found;
}

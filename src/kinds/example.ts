/**
 * The shape of a kind's example object (`example.ts` in each kind's folder), for the tests
 * that walk every kind (test/kinds/walkthrough.test.ts, test/drills/export-roundtrip.test.ts;
 * loaded by test/support/kind-examples.ts). Test data: these files are type-checked with the
 * tests and left out of the build (tsconfig.json `exclude`), so production code never makes
 * example objects and the package never ships them.
 */
import type { KindAttributes } from './kind.js';

/** A PEM certificate with its private key, made for a test (see {@link ExampleFixtures}). */
export interface ExampleCertificate {
  readonly certificate: string;
  readonly privateKey: string;
}

/**
 * What an {@link ExampleHook} may ask the test that calls it for: data that production code
 * never makes (it generates no certificates). The tests that call the hooks provide them.
 */
export interface ExampleFixtures {
  /** A new self-signed certificate for `commonName` and its private key (each call a new one). */
  certificate(commonName: string): Promise<ExampleCertificate>;
}

/**
 * A link an example object needs to be valid (without it the gateway's validator reports an
 * ERROR, e.g. a mapping without a back-end group): through `relationship` (a relationship
 * of the kind that exists in the latest variant) to an example object of its target kind.
 */
export interface ExampleRequirement {
  readonly relationship: string;
}

/** One example object of a kind (see {@link ExampleHook}). */
export interface KindExample {
  /**
   * The attributes of a minimal valid object, without the document's `name` (which names
   * the object: its `name` attribute, or a certificate's local handle). Valid means: no
   * manifest diagnostic and, with the links in `requires`, no validator ERROR on the
   * gateway. Secret attributes (`x-gwops-secret`) hold their plain values: the caller
   * writes them to files and declares `{ fromFile }`.
   */
  readonly attributes: KindAttributes;
  /**
   * One change for the update step (empty when the kind has no attribute but its name, see
   * {@link hasUpdatableAttributes}): top-level attributes that replace (or add to) those of
   * `attributes`, each with a value the object does not have yet. The identity must stay
   * the same (not a certificate's `certificate`).
   */
  readonly update: KindAttributes;
  /** The links the object needs to be valid; none when it is valid on its own. */
  readonly requires?: readonly ExampleRequirement[];
}

/**
 * An example object of the kind named `name`, for tests that walk every registered kind
 * (test/kinds/walkthrough.test.ts: create, update, link and unlink through every canonical
 * relationship, delete, through the CLI against the emulator's latest variant, whose
 * attributes the example must use). Called once per object: a certificate's identity is
 * its PEM, so a second call gives another object.
 */
export type ExampleHook = (name: string, fixtures: ExampleFixtures) => KindExample | Promise<KindExample>;

/**
 * No secret value appears in any rendered output or in the plan's JSON. The golden cases
 * run the same check on their plans (test/golden/golden.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../src/kinds/index.js';
import { identityHandles, desiredState } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import type { ApiResource } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import type { Plan } from '../../src/engine/plan-types.js';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { doc, options, pem, resource } from '../engine/helpers.js';

function outputs(plan: Plan): string[] {
  return [
    renderText(plan, { color: false }),
    renderText(plan, { color: true }),
    renderMarkdown(plan, { validatorMessages: [{ severity: 'error', code: 'X', message: 'x', object: { kind: 'mapping', name: 'shop-api' } }] }),
    renderJson(plan),
    JSON.stringify(plan),
  ];
}

describe('secrets in rendered output', () => {
  it('masks live (before) and desired (after) secret values of updates, and secrets inside changed objects', () => {
    const desired = desiredState([
      doc('mapping', 'api', { access: { tokenVerification: { jwsKey: 'NEW-JWS-SECRET', jweKey: 'NEW-JWE-SECRET' } } }),
      doc('acme-service', 'acme', { externalAccountBinding: { hmacKey: 'HMAC-SECRET', keyId: 'k2' } }),
      doc('ssl-certificate', 'c', { certificate: pem('c'), privateKey: 'PRIVATE-SECRET', passphrase: 'PASS-SECRET' }),
    ]);
    const lists: Partial<Record<ResourceType, ApiResource[]>> = {
      mapping: [resource('mapping', '1', { name: 'api', access: { tokenVerification: 'OLD-NOT-AN-OBJECT-SECRET' } })],
      'acme-service': [resource('acme-service', '2', { name: 'acme', externalAccountBinding: { keyId: 'k1' } })],
    };
    const plan = buildPlan(desired, liveState(lists, identityHandles(desired)), options());
    expect(plan.summary).toEqual({ create: 1, update: 2, delete: 0, link: 0, unlink: 0 });
    for (const out of outputs(plan)) {
      for (const secret of ['NEW-JWS-SECRET', 'NEW-JWE-SECRET', 'HMAC-SECRET', 'PRIVATE-SECRET', 'PASS-SECRET']) expect(out).not.toContain(secret);
    }
    const acme = plan.steps.find((s) => s.kind === 'acme-service');
    expect(acme && 'secretPaths' in acme ? acme.secretPaths : undefined).toEqual(['/data/attributes/externalAccountBinding/hmacKey']);
  });
});

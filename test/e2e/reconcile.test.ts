import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

describe('plan, apply and drift of the examples against the emulator', () => {
  const t = useHarness();

  it('plans the whole example as creates and links, checked by the gateway', async () => {
    const r = await t.h.cli(['plan', ...t.config, '--detailed-exitcode']);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/Plan: \d+ to create, 0 to update, 0 to delete/);
    expect(r.stdout).toContain('+ mapping');
  });

  it('applies and activates with a comment, then plans no changes', async () => {
    const apply = await t.h.cli(['apply', '--yes', ...t.config, '--comment', 'e2e apply']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('activated');
    const snapshot = JSON.stringify(t.h.emulator.activeSnapshot());
    expect(snapshot).toContain('e2e apply');
    const plan = await t.h.cli(['plan', ...t.config, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes');
    const drift = await t.h.cli(['drift', ...t.config]);
    expect(drift.code).toBe(0);
  });

  it('reports each change made behind its back with exit 2, and apply heals them', async () => {
    let deleted = '';
    await t.h.raw(async (s) => {
      const [checkout] = await s.list('mappings', ['labels==managed-by-gwops']);
      if (!checkout) throw new Error('no managed mapping');
      await s.update('mappings', checkout.id, { type: 'mapping', attributes: { threatHandling: 'NOTIFY' } });
      const [vh] = await s.list('virtual-hosts', ['name=@example-']);
      const vhMappings = vh?.relationships.mappings?.data;
      const first = Array.isArray(vhMappings) ? vhMappings[0] : undefined;
      if (!vh || !first) throw new Error('no linked virtual host');
      await s.unlink('virtual-hosts', vh.id, 'mappings', [first]);
      const [group] = await s.list('back-end-groups', ['name=@example-']);
      const extra = await s.create('mappings', { type: 'mapping', attributes: { name: 'example-extra', labels: ['managed-by-gwops'] } });
      if (group) await s.link('mappings', extra.id, 'back-end-groups', [{ type: 'back-end-group', id: group.id }]);
      const managed = await s.list('mappings', ['labels==managed-by-gwops']);
      const victim = managed.filter((m) => m.attributes.name !== 'example-extra').at(-1);
      if (!victim) throw new Error('no mapping to delete');
      await s.remove('mappings', victim.id);
      deleted = String(victim.attributes.name);
    }, 'manual changes');
    const drift = await t.h.cli(['drift', ...t.config]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('threatHandling');
    expect(drift.stdout).toMatch(/link|mappings/);
    expect(drift.stdout).toContain('example-extra');
    expect(drift.stdout).toMatch(new RegExp(`Deleted on the gateway:\\n  # mapping "${deleted}"`));
    expect(drift.stdout).toMatch(/Added on the gateway:\n {2}# mapping "example-extra"/);
    // The apply used its own --comment, so no activation in the history is recognisably gwops's.
    expect(drift.stdout).toContain('The drift cannot be attributed: the configuration history holds no activation made by gwops');
    const markdown = await t.h.cli(['drift', ...t.config, '--format', 'markdown']);
    expect(markdown.code).toBe(2);
    expect(markdown.stdout).toContain('### gwops drift');
    expect(markdown.stdout).not.toContain('### gwops plan');
    const heal = await t.h.cli(['apply', '--yes', ...t.config, '--prune', '--comment', 'heal']);
    expect(heal.code).toBe(0);
    const after = await t.h.cli(['drift', ...t.config]);
    expect(after.stdout).toContain('No drift');
    expect(after.code).toBe(0);
  });
});

/**
 * The call sequence of the vendor's public IP-list sample script, replayed over real HTTPS
 * (docs/gateway-api.md "What real clients send"). The script adds IP address lists to, or
 * removes them from, the whitelists or blacklists of the mappings it selects (by a name
 * pattern or a label), optionally switches the role's `logOnly`, saves with a comment and
 * ends its session; its show action prints every mapping's whitelist `logOnly` and every
 * list's `ip-address-whitelists`.
 *
 * Its habits, all kept here: `Accept` and `Content-Type: application/json` and the Bearer
 * key on every call (GETs and body-less POSTs with an empty body included), the cookie the
 * session sets, some paths with a double slash after the base path, the last configuration
 * in the list (`data[0]`) loaded rather than the active one, `PATCH` (add) and `DELETE`
 * (remove) on the mapping's relationship endpoints with a `data[]` that may be empty, and a
 * partial `PATCH` of `ipRules.<role>.logOnly` (the script asks for a list with it). A call that does not answer 2xx fails the run,
 * as the script's HTTP library raises on it.
 *
 * The replay is the test: the script itself is not part of this repository, and a test that
 * ran it only when a file outside the repository was named would pass without checking
 * anything on every other run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, linkedIds, many, one, startHarness } from './client.js';
import type { Client, Harness, Reply, ResourceObject } from './client.js';

/** What one run of the script is asked to do. */
interface Run {
  action: 'show' | 'add' | 'remove';
  /** Selects mappings whose name matches this pattern… */
  pattern?: RegExp;
  /** …or that carry this label. */
  label?: string;
  /** Selects the IP address lists whose name matches. */
  lists?: RegExp;
  role: 'whitelists' | 'blacklists';
  logOnly?: boolean;
  /** false: the operator answers "n" when asked to save. */
  confirm?: boolean;
}

/** What a run printed or did. */
interface Outcome {
  result: 'shown' | 'saved' | 'not-saved' | 'no-mapping' | 'no-list';
  /** show: `ipRules.ipAddressWhitelists.logOnly` of every mapping, in list order. */
  logOnly?: unknown[];
  /** show: `relationships['ip-address-whitelists']` of every list, by list name. */
  whitelistedBy?: Record<string, unknown>;
  comment?: string;
}

/** The script's client: everything on every call, the path appended to `<base>/`. */
function scriptClient(h: Harness): (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => Promise<Reply> {
  const client: Client = h.client();
  return async (method, path, body) => {
    const reply = await client.call(method, `/${path}`, {
      raw: body === undefined ? '' : JSON.stringify(body),
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${h.emulator.apiKey}` },
    });
    if (reply.status < 200 || reply.status > 299) throw new Error(`${method} ${path} answered ${reply.status}: ${reply.text}`);
    // keep the session cookie, as the script's cookie jar does
    const setCookie = reply.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]).find((c) => c.startsWith('JSESSIONID='));
    if (cookie !== undefined) client.cookie = cookie.split(';')[0];
    return reply;
  };
}

/** One run of the script's call sequence. */
async function runScript(h: Harness, run: Run): Promise<Outcome> {
  const send = scriptClient(h);
  const finish = async (outcome: Outcome): Promise<Outcome> => {
    await send('POST', 'session/terminate');
    return outcome;
  };
  await send('POST', 'session/create');
  const configurations = many(await send('GET', 'configuration/configurations'));
  await send('POST', `configuration/configurations/${configurations[0]?.id ?? 'none'}/load`);
  const mappings = many(await send('GET', 'configuration/mappings'));
  const selected = mappings.filter((m) =>
    run.pattern !== undefined ? run.pattern.test(String(m.attributes.name)) : (m.attributes.labels as unknown[]).includes(run.label),
  );
  if (selected.length === 0) return finish({ result: 'no-mapping' });
  const lists = many(await send('GET', 'configuration/ip-address-lists'));
  const chosen = run.lists === undefined ? [] : lists.filter((l) => run.lists?.test(String(l.attributes.name)));
  if (run.lists !== undefined && chosen.length === 0) return finish({ result: 'no-list' });

  if (run.action === 'show') {
    const logOnly = mappings.map((m) => at(m.attributes, 'ipRules.ipAddressWhitelists.logOnly'));
    const again = many(await send('GET', '/configuration/ip-address-lists'));
    const whitelistedBy = Object.fromEntries(again.map((l) => [String(l.attributes.name), l.relationships?.['ip-address-whitelists']]));
    return finish({ result: 'shown', logOnly, whitelistedBy });
  }

  const roleAttribute = run.role === 'whitelists' ? 'ipAddressWhitelists' : 'ipAddressBlacklists';
  for (const mapping of selected) {
    one(await send('GET', `/configuration/mappings/${mapping.id}`));
    const data = chosen.map((l) => ({ id: l.id, type: 'ip-address-list' }));
    await send(run.action === 'add' ? 'PATCH' : 'DELETE', `configuration/mappings/${mapping.id}/relationships/ip-address-${run.role}`, { data });
    if (run.logOnly !== undefined) {
      await send('PATCH', `configuration/mappings/${mapping.id}`, {
        data: { attributes: { ipRules: { [roleAttribute]: { logOnly: run.logOnly } } }, id: mapping.id, type: 'mapping' },
      });
    }
  }
  if (run.confirm === false) return finish({ result: 'not-saved' });
  const names = selected.map((m) => String(m.attributes.name)).sort();
  const comment = `REST: ${run.action} ${run.role} of ${chosen.map((l) => String(l.attributes.name)).join(', ')} for ${names.join(',')}`;
  await send('POST', 'configuration/configurations/save', { comment });
  return finish({ result: 'saved', comment });
}

/** The mappings of the last configuration in the list, by name (a session of its own). */
async function lastSaved(h: Harness): Promise<{ comment: unknown; mappings: Record<string, ResourceObject>; lists: Record<string, string> }> {
  const c = h.client();
  await c.createSession(h.emulator.apiKey);
  const [last] = many(await c.call('GET', '/configuration/configurations'));
  expect((await c.call('POST', `/configuration/configurations/${last?.id ?? 'none'}/load`)).status).toBe(204);
  const mappings = Object.fromEntries((await c.list('mapping')).map((m) => [String(m.attributes.name), m]));
  const lists = Object.fromEntries((await c.list('ip-address-list')).map((l) => [l.id, String(l.attributes.name)]));
  await c.terminate();
  return { comment: last?.attributes.comment, mappings, lists };
}

/** Names of the lists a mapping links in a role. */
function linkedNames(state: Awaited<ReturnType<typeof lastSaved>>, mapping: string, role: 'whitelists' | 'blacklists'): string[] {
  const resource = state.mappings[mapping];
  if (resource === undefined) throw new Error(`no mapping ${mapping}`);
  return linkedIds(resource, `ip-address-${role}`)
    .map((id) => state.lists[String(id)] ?? `?${String(id)}`)
    .sort();
}

/** Three mappings with labels and two lists, saved (not activated) as the last configuration. */
async function seed(h: Harness): Promise<void> {
  const c = await h.client().open(h.emulator.apiKey);
  for (const [name, label] of [['mapping_a', 'team-a'], ['mapping_b', 'team-b'], ['mapping_c', 'team-c']] as const) {
    await c.create('mapping', { name, entryPath: { value: `/${name}/` }, labels: [label, 'all'] });
  }
  await c.create('ip-address-list', { name: 'IP-list1', ips: ['192.0.2.1/32'] });
  await c.create('ip-address-list', { name: 'IP-list2', ips: ['192.0.2.2/32'] });
  expect((await c.call('POST', '/configuration/configurations/save', { json: { comment: 'seed' } })).status).toBe(200);
  await c.terminate();
}

describe.each(['earliest', 'latest'] as const)('the vendor IP-list script call sequence (%s variant)', (variant) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant });
    await seed(h);
  });
  afterAll(async () => {
    await h.close();
  });

  it('show (-s) prints every mapping whitelist logOnly and every list whitelist linkage', async () => {
    const shown = await runScript(h, { action: 'show', pattern: /mapping/, role: 'whitelists' });
    expect(shown).toEqual({
      result: 'shown',
      logOnly: [false, false, false],
      whitelistedBy: { 'IP-list1': { data: [] }, 'IP-list2': { data: [] } },
    });
  });

  it('add by pattern (-a -m -i -w) links the list as a whitelist, and show sees it from the list side', async () => {
    expect((await runScript(h, { action: 'add', pattern: /^mapping_a$/, lists: /^IP-list1$/, role: 'whitelists' })).result).toBe('saved');
    const state = await lastSaved(h);
    expect(state.comment).toMatch(/^REST: add whitelists of IP-list1 for mapping_a$/);
    expect(linkedNames(state, 'mapping_a', 'whitelists')).toEqual(['IP-list1']);
    expect(linkedNames(state, 'mapping_b', 'whitelists')).toEqual([]);
    const shown = await runScript(h, { action: 'show', label: 'all', role: 'blacklists' });
    expect(shown.whitelistedBy).toEqual({ 'IP-list1': { data: [{ type: 'mapping', id: state.mappings.mapping_a?.id }] }, 'IP-list2': { data: [] } });
  });

  it('add by label with log-only (-a -l -i -b -o true) links both lists and sets only the blacklist logOnly', async () => {
    expect((await runScript(h, { action: 'add', label: 'team-b', lists: /IP-list/, role: 'blacklists', logOnly: true })).result).toBe('saved');
    const state = await lastSaved(h);
    expect(linkedNames(state, 'mapping_b', 'blacklists')).toEqual(['IP-list1', 'IP-list2']);
    const ipRules = state.mappings.mapping_b?.attributes.ipRules;
    expect(at(ipRules, 'ipAddressBlacklists.logOnly')).toBe(true);
    expect(at(ipRules, 'ipAddressWhitelists.logOnly')).toBe(false);
    // a partial PATCH keeps the siblings of the member it sets
    expect(at(ipRules, 'ipAddressBlacklists.vendorThreatCategories')).toBe(at(state.mappings.mapping_a?.attributes.ipRules, 'ipAddressBlacklists.vendorThreatCategories'));
    expect(linkedNames(state, 'mapping_a', 'whitelists')).toEqual(['IP-list1']);
  });

  it('remove (-r -w) unlinks with a DELETE carrying a body, leaving other roles and mappings alone', async () => {
    expect((await runScript(h, { action: 'remove', pattern: /mapping_a/, lists: /IP-list1/, role: 'whitelists' })).result).toBe('saved');
    expect((await runScript(h, { action: 'remove', label: 'team-b', lists: /IP-list2/, role: 'blacklists', logOnly: false })).result).toBe('saved');
    const state = await lastSaved(h);
    expect(linkedNames(state, 'mapping_a', 'whitelists')).toEqual([]);
    expect(linkedNames(state, 'mapping_b', 'blacklists')).toEqual(['IP-list1']);
    expect(at(state.mappings.mapping_b?.attributes.ipRules, 'ipAddressBlacklists.logOnly')).toBe(false);
  });

  it('add without a list (-a -w, no -i) sends an empty data[] that links nothing', async () => {
    expect((await runScript(h, { action: 'add', pattern: /mapping/, role: 'whitelists' })).result).toBe('saved');
    const state = await lastSaved(h);
    expect(linkedNames(state, 'mapping_a', 'whitelists')).toEqual([]);
    expect(linkedNames(state, 'mapping_b', 'blacklists')).toEqual(['IP-list1']);
  });

  it('log-only on a whitelist (-a -i -w -o true) shows in the whitelist logOnly of that mapping only', async () => {
    expect((await runScript(h, { action: 'add', pattern: /mapping_c/, lists: /IP-list2/, role: 'whitelists', logOnly: true })).result).toBe('saved');
    const state = await lastSaved(h);
    expect(linkedNames(state, 'mapping_c', 'whitelists')).toEqual(['IP-list2']);
    const shown = await runScript(h, { action: 'show', pattern: /./, role: 'whitelists' });
    expect(shown.logOnly).toEqual([false, false, true]);
    expect(shown.whitelistedBy).toEqual({ 'IP-list1': { data: [] }, 'IP-list2': { data: [{ type: 'mapping', id: state.mappings.mapping_c?.id }] } });
  });

  it('an unconfirmed run (no -f, answered "n") saves nothing: the next run loads the previous state', async () => {
    const before = await lastSaved(h);
    expect((await runScript(h, { action: 'add', pattern: /mapping_a/, lists: /IP-list2/, role: 'whitelists', confirm: false })).result).toBe('not-saved');
    const after = await lastSaved(h);
    expect(after.comment).toBe(before.comment);
    expect(linkedNames(after, 'mapping_a', 'whitelists')).toEqual([]);
  });

  it('a selection that matches no mapping or no list ends the session without changes', async () => {
    expect((await runScript(h, { action: 'show', pattern: /nomatch/, role: 'whitelists' })).result).toBe('no-mapping');
    expect((await runScript(h, { action: 'add', pattern: /mapping/, lists: /nolist/, role: 'whitelists' })).result).toBe('no-list');
  });
});

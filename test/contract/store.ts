// The one contract of the store, run against every dialect (test/store-*.test.ts). Whatever
// one adapter does that the other does not is a bug in the other.
import type { Test } from 'tap';
import { parseApiKey } from '../../src/domain/api-keys.ts';
import { Refusal } from '../../src/domain/errors.ts';
import { admittedJob } from '../../src/domain/generation.ts';
import { parseTemplate, type TemplateModel } from '../../src/domain/template.ts';
import type { Tenant } from '../../src/domain/tenant.ts';
import { specOf } from '../../src/domain/render-spec.ts';
import { newId } from '../../src/lib/ids.ts';
import { BUNDLED_FONTS, bundledFontId, PERSONAL_LICENSE, TRIAL_LICENSE } from '../../src/domain/fonts.ts';
import type { Store } from '../../src/store/index.ts';
import { runHelper } from '../helpers/spawn.ts';
import type { StoreFactory } from '../helpers/stores.ts';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const A4 = 1500;

function template(name = 'Letter'): TemplateModel {
  const parsed = parseTemplate({
    version: 2,
    name,
    mode: 'simple',
    style: { fontId: bundledFontId('caveat') },
  });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.template;
}

async function rejects(t: Test, promise: Promise<unknown>, pattern: RegExp, what: string): Promise<void> {
  try {
    await promise;
    t.fail(`${what}: expected a refusal`);
  } catch (err) {
    t.type(err, Refusal, `${what}: a Refusal`);
    t.match((err as Error).message, pattern, what);
  }
}

export function storeContract(t: Test, makeFactory: () => Promise<StoreFactory>): void {
  let factory: StoreFactory;
  let store: Store;

  t.before(async () => {
    factory = await makeFactory();
    store = await factory.open();
  });
  t.teardown(async () => {
    await factory?.cleanup();
  });

  const account = async (plan = 'none', period?: number) =>
    store.accounts.create({ name: 'Acme', plan, period, now: NOW });
  const tenant = (accountId: string, mode: 'live' | 'test' = 'live'): Tenant => ({ accountId, mode });

  t.test('migrations register the bundled fonts with metadata from their cmaps', async (t) => {
    const fonts = await store.fonts.listVisible(null);
    t.equal(fonts.length, BUNDLED_FONTS.length, 'every bundled font registered');
    t.ok(fonts.length >= 8, 'at least 8 fonts');
    const premium = fonts.filter((f) => f.premium).length;
    t.ok(premium >= 2 && premium <= 3, `two or three premium fonts, got ${premium}`);
    for (const f of fonts) {
      if (f.name === 'Aref Ruqaa')
        t.same(
          f.scripts,
          ['Arabic'],
          'Aref Ruqaa writes Arabic by hand; its Latin letters are type, not listed',
        );
      else t.ok(f.scripts.includes('Latin'), `${f.name} writes Latin`);
      t.ok(f.glyphCount > 50 && f.bytes > 1000, `${f.name} has glyphs and bytes`);
      t.match(f.license, /^(OFL-1\.1|Apache-2\.0)$/, `${f.name} has a licence`);
    }
    const byName = new Map(fonts.map((f) => [f.name, f]));
    t.ok(byName.get('Nanum Pen Script')?.scripts.includes('Hangul'), 'Nanum Pen Script covers Hangul');
    t.ok(byName.get('Kalam')?.scripts.includes('Devanagari'), 'Kalam covers Devanagari');
    t.ok(byName.get('Caveat')?.scripts.includes('Cyrillic'), 'Caveat covers Cyrillic');
    t.notOk(
      byName.get('Homemade Apple')?.scripts.includes('Cyrillic'),
      'Homemade Apple does not cover Cyrillic',
    );
    t.equal(byName.get('Caveat')?.id, bundledFontId('caveat'), 'bundled ids are stable');
  });

  t.test('migrating again changes nothing', async (t) => {
    t.same(await store.db.migrate(), [], 'no migration ran twice');
    const fonts = await store.fonts.listVisible(null);
    t.equal(fonts.length, BUNDLED_FONTS.length);
  });

  t.test('accounts: plans and periods, refused input writes nothing', async (t) => {
    const before = await store.accounts.count();
    const a = await account('pro', 7);
    t.equal(a.plan, 'pro');
    t.equal(a.periodDays, 7);
    t.equal(a.planAnchor, NOW.toISOString());
    t.match(a.id, /^acc_[0-9A-Za-z]{22}$/);
    t.same(await store.accounts.get(a.id), a, 'read back the same');
    const b = await account('premium');
    t.equal(b.periodDays, 30, 'period defaults to 30 days');
    const c = await account();
    t.equal(c.plan, 'none');
    t.equal(c.periodDays, null);
    await rejects(
      t,
      account('gold'),
      /plan must be one of none, week, basic, pro, premium, got "gold"/,
      'unknown plan',
    );
    await rejects(t, account('week', 30), /period of plan week must be 7 days, got 30/, 'wrong period');
    await rejects(
      t,
      account('none', 7),
      /period must be omitted for plan none, got 7/,
      'period without plan',
    );
    await rejects(
      t,
      store.accounts.create({ name: '  ', now: NOW }),
      /name must be 1-120 characters, got 0/,
      'blank name',
    );
    t.equal(await store.accounts.count(), before + 3, 'only the valid accounts exist');
  });

  t.test('plan set starts a new period and keeps bought sheets', async (t) => {
    const a = await account('basic', 30);
    await store.billing.topUp(tenant(a.id), 50, NOW);
    await store.billing.charge(tenant(a.id), { jobId: newId('gen'), pages: 10, milliPerPage: A4 }, NOW);
    let r = await store.billing.report(tenant(a.id), NOW);
    t.equal(r.subscription.sheetsUsed, 15);
    const later = new Date(NOW.getTime() + 3_600_000);
    const changed = await store.accounts.setPlan(a.id, 'pro', 7, later);
    t.equal(changed.plan, 'pro');
    t.equal(changed.planAnchor, later.toISOString());
    r = await store.billing.report(tenant(a.id), later);
    t.equal(r.subscription.sheetsUsed, 0, 'new period, nothing used');
    t.equal(r.subscription.sheetsPerPeriod, 250);
    t.equal(r.extraSheets, 50, 'bought sheets stay');
    await rejects(
      t,
      store.accounts.setPlan(a.id, 'gold', undefined, later),
      /plan must be one of/,
      'unknown plan',
    );
    await rejects(
      t,
      store.accounts.setPlan('acc_nope', 'pro', 7, later),
      /account "acc_nope" does not exist/,
      'unknown account',
    );
  });

  t.test('API keys: hash only, display prefix, revocation, at most 10 active', async (t) => {
    const a = await account();
    const { key, record } = await store.accounts.createKey({
      accountId: a.id,
      mode: 'test',
      max: 10,
      now: NOW,
    });
    t.match(key, /^hw_test_[0-9A-Za-z]{38}$/);
    t.ok(parseApiKey(key).ok, 'checksum valid');
    t.equal(record.displayPrefix, key.slice(0, 16));
    const rows = await store.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', record.id)
      .execute();
    t.equal(rows.length, 1);
    t.notOk(JSON.stringify(rows).includes(key.slice(16)), 'the secret part is not stored');
    t.match(rows[0]!.key_hash, /^[0-9a-f]{64}$/);
    const found = await store.accounts.findKey(key);
    t.equal(found?.id, record.id);
    t.equal(found?.account.id, a.id);
    t.equal(found?.mode, 'test');
    t.equal(
      await store.accounts.findKey(`${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`),
      null,
      'a different key finds nothing',
    );
    const revoked = await store.accounts.revokeKey(record.id, NOW);
    t.equal(revoked?.revokedAt, NOW.toISOString());
    const again = await store.accounts.revokeKey(record.id, new Date(NOW.getTime() + 1000));
    t.equal(again?.revokedAt, NOW.toISOString(), 'revoking twice keeps the first time');
    t.equal(
      (await store.accounts.findKey(key))?.revokedAt,
      NOW.toISOString(),
      'a revoked key is still known as revoked',
    );
    t.equal(await store.accounts.revokeKey('key_unknown', NOW), null);
  });

  t.test('API keys: last used is recorded in batches and never moves back', async (t) => {
    const a = await account();
    const { record } = await store.accounts.createKey({ accountId: a.id, mode: 'live', max: 10, now: NOW });
    const lastUsed = async () =>
      (await store.accounts.listKeys(a.id)).find((k) => k.id === record.id)?.lastUsedAt;
    t.equal(await lastUsed(), null, 'a new key was never used');
    const at = (s: number) => new Date(NOW.getTime() + s * 1000).toISOString();
    await store.db.write((tx) =>
      store.accounts.touchKeys(
        tx,
        new Map([
          [record.id, at(60)],
          ['key_unknown', at(60)],
        ]),
      ),
    );
    t.equal(await lastUsed(), at(60), 'written; an unknown key changes nothing');
    await store.db.write((tx) => store.accounts.touchKeys(tx, new Map([[record.id, at(30)]])));
    t.equal(await lastUsed(), at(60), 'an older batch written later keeps the newer time');
    await store.db.write((tx) => store.accounts.touchKeys(tx, new Map([[record.id, at(90)]])));
    t.equal(await lastUsed(), at(90));
  });

  t.test('12 racing key creations with room for 10 leave exactly 10 active', async (t) => {
    const a = await account();
    const other = await factory.open();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? other : store).accounts.createKey({ accountId: a.id, mode: 'live', max: 10, now: NOW }),
      ),
    );
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 10, '10 created');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    t.equal(refused.length, 2, '2 refused');
    for (const r of refused) t.match(String(r.reason), /has 10 active API keys, the most allowed is 10/);
    t.equal((await store.accounts.listKeys(a.id)).length, 10);
    const first = (await store.accounts.listKeys(a.id))[0]!;
    await store.accounts.revokeKey(first.id, NOW);
    await store.accounts.createKey({ accountId: a.id, mode: 'live', max: 10, now: NOW });
    t.equal(
      (await store.accounts.listKeys(a.id)).filter((k) => !k.revokedAt).length,
      10,
      'a revoked key frees a place',
    );
  });

  t.test('users: sign-up is all or nothing; sessions end, expire and end everywhere', async (t) => {
    const later = (days: number) => new Date(NOW.getTime() + days * 86_400_000);
    const grant = (hash: string, days = 14) => ({ tokenHash: hash, expiresAt: later(days) });
    const email = `ada-${Math.random().toString(36).slice(2)}@example.com`;
    const up = await store.users.signUp({
      email,
      name: 'Ada',
      passwordHash: '$argon2id$stand-in',
      accountName: 'Byron Letters',
      session: grant('s1'),
      testSheets: 50,
      now: NOW,
    });
    t.equal(up.account.name, 'Byron Letters');
    t.equal(
      (await store.billing.report({ accountId: up.account.id, mode: 'test' }, NOW)).extraSheets,
      50,
      'the new account starts with its test sheets',
    );
    t.same(
      (await store.users.memberships(up.user.id)).map((m) => [m.accountId, m.accountName, m.role]),
      [[up.account.id, 'Byron Letters', 'owner']],
    );
    t.equal((await store.users.byEmail(email))?.passwordHash, '$argon2id$stand-in');
    const accountsBefore = await store.accounts.count();
    await rejects(
      t,
      store.users.signUp({
        email,
        name: 'Ada again',
        passwordHash: 'x',
        accountName: 'Second',
        session: grant('s-taken'),
        testSheets: 50,
        now: NOW,
      }),
      /already has a user; sign in instead/,
      'a taken address',
    );
    t.equal(await store.accounts.count(), accountsBefore, 'and no account was left behind');
    t.equal(await store.users.sessionUser('s-taken', NOW), null, 'nor a session');

    t.equal((await store.users.sessionUser('s1', NOW))?.user.id, up.user.id, 'the session opens');
    t.equal(await store.users.sessionUser('s1', later(15)), null, 'and is over after 14 days');
    await store.users.startSession(up.user.id, grant('s2'), NOW);
    await store.users.startSession(up.user.id, grant('s3'), NOW);
    await store.users.endSession('s2');
    t.equal(await store.users.sessionUser('s2', NOW), null, 'signed out');
    t.ok(await store.users.sessionUser('s3', NOW), 'the other session goes on');
    t.equal(await store.users.endSessions(up.user.id), 2, 'everywhere: the two left');
    t.equal(await store.users.sessionUser('s1', NOW), null);
    t.equal(await store.users.sessionUser('s3', NOW), null);
  });

  t.test('users: invitations are accepted once, by their address, over two connections', async (t) => {
    const later = (days: number) => new Date(NOW.getTime() + days * 86_400_000);
    const tag = Math.random().toString(36).slice(2);
    const owner = await store.users.signUp({
      email: `owner-${tag}@example.com`,
      name: 'Owner',
      passwordHash: 'h',
      accountName: 'Team',
      session: { tokenHash: `o-${tag}`, expiresAt: later(14) },
      testSheets: 50,
      now: NOW,
    });
    const invite = (email: string, hash: string) =>
      store.users.invite({
        accountId: owner.account.id,
        email,
        role: 'member',
        tokenHash: hash,
        invitedBy: owner.user.id,
        now: NOW,
        expiresAt: later(7),
      });
    await rejects(
      t,
      invite(`owner-${tag}@example.com`, `x-${tag}`),
      /already a member/,
      'a member is not invited',
    );
    const inv = await invite(`grace-${tag}@example.com`, `i-${tag}`);
    t.same(
      (await store.users.pendingInvitations(owner.account.id, NOW)).map((i) => i.id),
      [inv.id],
    );
    t.equal((await store.users.openInvitation(`i-${tag}`, NOW))?.accountName, 'Team');
    t.equal(await store.users.openInvitation(`i-${tag}`, later(8)), null, 'an invitation lasts 7 days');

    const other = await factory.open();
    const accept = (s: Store, n: number) =>
      s.users.accept({
        tokenHash: `i-${tag}`,
        as: { name: `Grace ${n}`, passwordHash: 'h' },
        session: { tokenHash: `g${n}-${tag}`, expiresAt: later(14) },
        now: NOW,
      });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, n) => accept(n % 2 ? other : store, n)),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled' && r.value !== null);
    t.equal(accepted.length, 1, 'six racing answers: exactly one joins');
    const members = await store.users.members(owner.account.id);
    t.same(members.map((m) => m.role).sort(), ['member', 'owner'], 'one member more');
    t.same(await store.users.pendingInvitations(owner.account.id, NOW), [], 'and the invitation is used');

    const second = await invite(`owner-two-${tag}@example.com`, `j-${tag}`);
    const withdrawn = await store.users.revokeInvitation(owner.account.id, second.id, NOW);
    t.ok(withdrawn.revokedAt, 'withdrawn');
    t.equal(await store.users.openInvitation(`j-${tag}`, NOW), null, 'its link opens nothing');
    await rejects(
      t,
      store.users.revokeInvitation(owner.account.id, 'inv_unknown', NOW),
      /invitation "inv_unknown" does not exist/,
      'an unknown invitation',
    );
    const third = await invite(`someone-${tag}@example.com`, `k-${tag}`);
    await rejects(
      t,
      store.users.accept({
        tokenHash: `k-${tag}`,
        as: { userId: owner.user.id },
        session: { tokenHash: `k2-${tag}`, expiresAt: later(14) },
        now: NOW,
      }),
      /this invitation was sent to someone-/,
      'only its address accepts it',
    );
    t.equal((await store.users.openInvitation(`k-${tag}`, NOW))?.id, third.id, 'and it is still open');
  });

  t.test(
    'users: roles change and members leave; two owners demoting each other at once leave one owner',
    async (t) => {
      const tag = Math.random().toString(36).slice(2);
      const later = new Date(NOW.getTime() + 14 * 86_400_000);
      const ada = await store.users.signUp({
        email: `ada-${tag}@example.com`,
        name: 'Ada',
        passwordHash: 'h',
        accountName: 'Pair',
        session: { tokenHash: `a-${tag}`, expiresAt: later },
        testSheets: 50,
        now: NOW,
      });
      const accountId = ada.account.id;
      const bob = await store.users.addMember({
        email: `bob-${tag}@example.com`,
        name: 'Bob',
        passwordHash: 'h',
        accountId,
        role: 'member',
        now: NOW,
      });
      await rejects(
        t,
        store.users.changeMember(accountId, ada.user.id, 'member'),
        /left without an owner/,
        'the only owner is not demoted',
      );
      await rejects(
        t,
        store.users.changeMember(accountId, ada.user.id, null),
        /left without an owner/,
        'nor removed',
      );
      t.match(await store.users.changeMember(accountId, bob.id, 'owner'), {
        id: bob.id,
        role: 'owner',
        name: 'Bob',
      });
      const other = await factory.open();
      const results = await Promise.allSettled([
        store.users.changeMember(accountId, ada.user.id, 'member'),
        other.users.changeMember(accountId, bob.id, 'member'),
      ]);
      t.same(
        results.map((r) => r.status).sort(),
        ['fulfilled', 'rejected'],
        'of two owners demoting each other at once, one is refused',
      );
      t.same(
        (await store.users.members(accountId)).map((m) => m.role).sort(),
        ['member', 'owner'],
        'one owner is left',
      );
      const member = (await store.users.members(accountId)).find((m) => m.role === 'member')!;
      t.equal(await store.users.changeMember(accountId, member.id, null), null, 'a member is removed');
      t.same((await store.users.members(accountId)).length, 1);
      t.same(
        (await store.users.memberships(member.id)).map((m) => m.accountId),
        [],
        'and belongs to the account no more',
      );
      await rejects(
        t,
        store.users.changeMember(accountId, member.id, 'owner'),
        /is not a member of this account/,
        'a removed member is not changed',
      );
    },
  );

  t.test('assets: listed by tenant, newest first; removed once, within the tenant only', async (t) => {
    const a = await account();
    const quota = { maxCount: 10, maxTotalBytes: 1_000_000 };
    const add = (mode: 'live' | 'test', n: number) =>
      store.assets.create(
        tenant(a.id, mode),
        {
          id: newId('asset'),
          type: 'image/png',
          width: 4,
          height: 3,
          bytes: 100 + n,
          sha256: 'f'.repeat(64),
          blobKey: `assets/${a.id}/${n}`,
          createdAt: new Date(NOW.getTime() + n * 1000).toISOString(),
        },
        quota,
      );
    const first = await add('test', 1);
    const second = await add('test', 2);
    const live = await add('live', 3);
    t.same(
      (await store.assets.list(tenant(a.id, 'test'))).map((x) => x.id),
      [second.id, first.id],
      'the test images, newest first; not the live one',
    );
    t.equal(
      await store.assets.remove(tenant(a.id, 'test'), live.id),
      null,
      'a live image is not removed as test',
    );
    t.equal((await store.assets.remove(tenant(a.id, 'test'), first.id))?.blobKey, `assets/${a.id}/1`);
    t.equal(await store.assets.remove(tenant(a.id, 'test'), first.id), null, 'once');
    t.same(await store.assets.usage(a.id), { count: 2, bytes: 102 + 103 }, 'the quota counts what is left');
  });

  t.test('templates: tenant and mode walls, revisions, newest-first pages, a cap per account', async (t) => {
    const a = await account();
    const b = await account();
    const tpl = await store.templates.create(tenant(a.id), template('One'), 100, NOW);
    t.match(tpl.id, /^tpl_/);
    t.equal(tpl.revision, 1);
    t.equal(tpl.kind, 'simple');
    t.same((await store.templates.get(tenant(a.id), tpl.id))?.model, tpl.model, 'model stored whole');
    t.equal(await store.templates.get(tenant(b.id), tpl.id), null, 'another account sees nothing');
    t.equal(await store.templates.get(tenant(a.id, 'test'), tpl.id), null, 'the other mode sees nothing');
    const updated = await store.templates.update(tenant(a.id), tpl.id, template('One, again'), NOW);
    t.equal(updated?.revision, 2);
    t.equal(updated?.name, 'One, again');
    t.equal(
      await store.templates.update(tenant(b.id), tpl.id, template(), NOW),
      null,
      'no update across accounts',
    );

    for (let i = 0; i < 4; i++) {
      await store.templates.create(
        tenant(a.id),
        template(`T${i}`),
        100,
        new Date(NOW.getTime() + (i + 1) * 1000),
      );
    }
    const p1 = await store.templates.list(tenant(a.id), { limit: 2 });
    t.same(
      p1.data.map((x) => x.name),
      ['T3', 'T2'],
    );
    t.equal(p1.hasMore, true);
    const p2 = await store.templates.list(tenant(a.id), { limit: 2, cursor: p1.nextCursor! });
    t.same(
      p2.data.map((x) => x.name),
      ['T1', 'T0'],
    );
    const p3 = await store.templates.list(tenant(a.id), { limit: 2, cursor: p2.nextCursor! });
    t.same(
      p3.data.map((x) => x.name),
      ['One, again'],
    );
    t.equal(p3.hasMore, false);
    t.equal(p3.nextCursor, null);
    await rejects(
      t,
      store.templates.list(tenant(a.id), { limit: 2, cursor: 'garbage' }),
      /cursor must be/,
      'bad cursor',
    );

    const c = await account();
    const racing = await Promise.allSettled(
      Array.from({ length: 6 }, () => store.templates.create(tenant(c.id, 'test'), template(), 4, NOW)),
    );
    t.equal(racing.filter((r) => r.status === 'fulfilled').length, 4, 'the cap holds under racing imports');
    await rejects(
      t,
      store.templates.create(tenant(c.id), template(), 4, NOW),
      /has 4 templates, the most allowed is 4/,
      'cap counts both modes',
    );
  });

  t.test('top-ups: packs of 50 to 1,000 sheets, live and test apart', async (t) => {
    const a = await account();
    for (const bad of [49, 1001, 0, -50, 50.5]) {
      await rejects(
        t,
        store.billing.topUp(tenant(a.id), bad, NOW),
        new RegExp(`sheets must be a whole number 50-1000, got ${bad}`),
        `pack of ${bad}`,
      );
    }
    await store.billing.topUp(tenant(a.id), 50, NOW);
    const live = await store.billing.topUp(tenant(a.id), 1000, NOW);
    t.equal(live.extraSheets, 1050);
    const test = await store.billing.report(tenant(a.id, 'test'), NOW);
    t.equal(test.extraSheets, 0, 'live top-ups do not reach the test balance');
    const test2 = await store.billing.topUp(tenant(a.id, 'test'), 200, NOW);
    t.equal(test2.extraSheets, 200);
    t.equal(
      (await store.billing.report(tenant(a.id), NOW)).extraSheets,
      1050,
      'test top-ups do not reach live',
    );
    const ledger = await store.db.kysely
      .selectFrom('ledger')
      .selectAll()
      .where('account_id', '=', a.id)
      .execute();
    t.equal(ledger.length, 3, 'one ledger row per top-up, none for refusals');
  });

  t.test('20 parallel charges against a balance for 10 leave exactly 10 charged and zero left', async (t) => {
    const a = await account();
    await store.billing.topUp(tenant(a.id), 50, NOW); // 50 sheets = 10 documents of 5 sheets
    const other = await factory.open();
    const jobs = Array.from({ length: 20 }, () => newId('gen'));
    const results = await Promise.all(
      jobs.map((jobId, i) =>
        (i % 2 ? other : store).billing.charge(tenant(a.id), { jobId, pages: 2, milliPerPage: 2500 }, NOW),
      ),
    );
    t.equal(results.filter((r) => r.ok).length, 10, 'exactly 10 charged');
    t.equal(results.filter((r) => !r.ok && r.reason === 'balance').length, 10, '10 refused for balance');
    const r = await store.billing.report(tenant(a.id), NOW);
    t.equal(r.extraSheets, 0, 'balance at zero');
    t.equal(r.availableSheets, 0);
    const charges = await store.db.kysely
      .selectFrom('ledger')
      .selectAll()
      .where('account_id', '=', a.id)
      .where('kind', '=', 'charge')
      .execute();
    t.equal(charges.length, 10, 'ten charge rows');
    t.equal(r.usage.pagesToday, 20, 'pages counted for the charged only');
  });

  t.test('charges from three processes at once never overdraw', async (t) => {
    const a = await account();
    await store.billing.topUp(tenant(a.id), 50, NOW); // room for 10 documents of 5 sheets
    const jobs = Array.from({ length: 21 }, () => newId('gen'));
    const child = (slice: string[]) =>
      runHelper('charge-child', [
        JSON.stringify({
          target: factory.target,
          accountId: a.id,
          mode: 'live',
          jobs: slice,
          pages: 2,
          milliPerPage: 2500,
          now: NOW,
        }),
      ]);
    const [c1, c2, here] = await Promise.all([
      child(jobs.slice(0, 7)),
      child(jobs.slice(7, 14)),
      Promise.all(
        jobs
          .slice(14)
          .map((jobId) => store.billing.charge(tenant(a.id), { jobId, pages: 2, milliPerPage: 2500 }, NOW)),
      ),
    ]);
    t.equal(c1.code, 0, c1.stderr);
    t.equal(c2.code, 0, c2.stderr);
    const all = [...JSON.parse(c1.stdout), ...JSON.parse(c2.stdout), ...here] as { ok: boolean }[];
    t.equal(all.length, 21);
    t.equal(all.filter((r) => r.ok).length, 10, 'exactly 10 charged across processes');
    t.equal((await store.billing.report(tenant(a.id), NOW)).extraSheets, 0, 'balance at zero, not below');
  });

  t.test('a job charged twice (even racing) is charged once', async (t) => {
    const a = await account();
    await store.billing.topUp(tenant(a.id), 100, NOW);
    const jobId = newId('gen');
    const other = await factory.open();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? other : store).billing.charge(tenant(a.id), { jobId, pages: 4, milliPerPage: A4 }, NOW),
      ),
    );
    t.ok(
      results.every((r) => r.ok && r.totalMilli === 6000),
      'every attempt reports the one charge',
    );
    t.equal(
      results.filter((r) => r.ok && !r.duplicate).length,
      1,
      'one attempt charged, the rest saw the charge',
    );
    const r = await store.billing.report(tenant(a.id), NOW);
    t.equal(r.extraSheets, 94, '6 sheets charged once');
    t.equal(r.usage.pagesToday, 4, 'pages counted once');
    const retry = await store.billing.charge(
      tenant(a.id),
      { jobId, pages: 4, milliPerPage: A4 },
      new Date(NOW.getTime() + 86_400_000),
    );
    t.ok(retry.ok && retry.duplicate, 'a retry the next day is still the same charge');
    t.equal((await store.billing.report(tenant(a.id), NOW)).extraSheets, 94);
  });

  t.test('spend order: plan sheets first, then extra; all or nothing', async (t) => {
    const a = await account('week', 7); // 100 plan sheets
    await store.billing.topUp(tenant(a.id), 50, NOW);
    const first = await store.billing.charge(
      tenant(a.id),
      { jobId: newId('gen'), pages: 60, milliPerPage: A4 },
      NOW,
    );
    t.match(first, { ok: true, planMilli: 90_000, extraMilli: 0 }, '90 sheets from the plan');
    const split = await store.billing.charge(
      tenant(a.id),
      { jobId: newId('gen'), pages: 20, milliPerPage: A4 },
      NOW,
    );
    t.match(split, { ok: true, planMilli: 10_000, extraMilli: 20_000 }, '10 from the plan, 20 from extra');
    const before = await store.billing.report(tenant(a.id), NOW);
    t.equal(before.subscription.sheetsLeft, 0);
    t.equal(before.extraSheets, 30);
    const tooBig = await store.billing.charge(
      tenant(a.id),
      { jobId: newId('gen'), pages: 21, milliPerPage: A4 },
      NOW,
    );
    t.match(tooBig, {
      ok: false,
      reason: 'balance',
      message: 'the document needs 31.5 sheets, 30 available',
    });
    const after = await store.billing.report(tenant(a.id), NOW);
    t.same(after, before, 'a refused charge changes nothing');
    const exact = await store.billing.charge(
      tenant(a.id),
      { jobId: newId('gen'), pages: 20, milliPerPage: A4 },
      NOW,
    );
    t.match(exact, { ok: true, extraMilli: 30_000 }, 'exactly the balance succeeds');
    t.equal((await store.billing.report(tenant(a.id), NOW)).availableSheets, 0);
    t.match(
      await store.billing.checkBeforeWork(tenant(a.id), NOW),
      { ok: false, reason: 'balance' },
      'nothing left to start work',
    );
  });

  t.test('plan sheets renew each period; test mode spends only test sheets', async (t) => {
    const a = await account('week', 7);
    await store.billing.charge(tenant(a.id), { jobId: newId('gen'), pages: 50, milliPerPage: 2000 }, NOW);
    t.equal((await store.billing.report(tenant(a.id), NOW)).subscription.sheetsLeft, 0);
    const nextWeek = new Date(NOW.getTime() + 7 * 86_400_000 + 1000);
    const r = await store.billing.report(tenant(a.id), nextWeek);
    t.equal(r.subscription.sheetsLeft, 100, 'a new period, a new allowance');
    t.equal(r.usage.pagesThisPeriod, 0, 'pages of the last period are not this period');
    const inNext = await store.billing.charge(
      tenant(a.id),
      { jobId: newId('gen'), pages: 5, milliPerPage: 1000 },
      nextWeek,
    );
    t.match(inNext, { ok: true, planMilli: 5000 });
    t.equal((await store.billing.report(tenant(a.id), nextWeek)).subscription.sheetsUsed, 5);

    const testMode = await store.billing.charge(
      tenant(a.id, 'test'),
      { jobId: newId('gen'), pages: 1, milliPerPage: 1000 },
      NOW,
    );
    t.match(testMode, { ok: false, reason: 'balance' }, 'plan sheets do not pay for test jobs');
    await store.billing.topUp(tenant(a.id, 'test'), 50, NOW);
    const paid = await store.billing.charge(
      tenant(a.id, 'test'),
      { jobId: newId('gen'), pages: 1, milliPerPage: 1000 },
      NOW,
    );
    t.match(paid, { ok: true, planMilli: 0, extraMilli: 1000 });
    const testReport = await store.billing.report(tenant(a.id, 'test'), NOW);
    t.equal(testReport.subscription.sheetsPerPeriod, 0);
    t.equal(testReport.usage.pagesToday, 1, 'test pages counted apart');
    t.equal((await store.billing.report(tenant(a.id), NOW)).usage.pagesToday, 50);
  });

  t.test('pages per UTC day: the whole document must fit; the day resets at 00:00 UTC', async (t) => {
    const a = await account(); // plan none: 200 pages a day
    await store.billing.topUp(tenant(a.id), 1000, NOW);
    t.match(
      await store.billing.charge(tenant(a.id), { jobId: newId('gen'), pages: 150, milliPerPage: 1000 }, NOW),
      { ok: true },
    );
    const over = await store.billing.charge(
      tenant(a.id),
      { jobId: newId('gen'), pages: 51, milliPerPage: 1000 },
      NOW,
    );
    t.match(over, {
      ok: false,
      reason: 'daily_pages',
      message: /51 pages exceed the daily allowance: 50 of 200 left today/,
    });
    t.match(
      await store.billing.charge(tenant(a.id), { jobId: newId('gen'), pages: 50, milliPerPage: 1000 }, NOW),
      { ok: true },
    );
    t.match(await store.billing.checkBeforeWork(tenant(a.id), NOW), { ok: false, reason: 'daily_pages' });
    const midnight = new Date('2026-03-11T00:00:00.000Z');
    t.match(await store.billing.checkBeforeWork(tenant(a.id), midnight), { ok: true }, 'a new UTC day');
    const r = await store.billing.report(tenant(a.id), midnight);
    t.equal(r.usage.pagesToday, 0);
    t.equal(r.usage.pagesThisPeriod, 200, 'the calendar month still counts them');
  });

  t.test('balance report has the shape of GET /usage balance', async (t) => {
    const a = await account('pro', 30);
    await store.billing.topUp(tenant(a.id), 50, NOW);
    const r = await store.billing.report(tenant(a.id), NOW);
    t.same(r, {
      mode: 'live',
      subscription: {
        plan: 'pro',
        name: 'Pro',
        periodDays: 30,
        periodStart: NOW.toISOString(),
        periodEnd: new Date(NOW.getTime() + 30 * 86_400_000).toISOString(),
        sheetsPerPeriod: 1000,
        sheetsUsed: 0,
        sheetsLeft: 1000,
        pagesPerDay: 1000,
        premiumFonts: true,
        renderAccess: true,
      },
      extraSheets: 50,
      availableSheets: 1050,
      usage: { pagesToday: 0, pagesThisPeriod: 0 },
    });
  });

  t.test('usage counters add up per tenant and UTC day', async (t) => {
    const a = await account();
    const tn = tenant(a.id);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        store.db.write((tx) => store.billing.count(tx, tn, NOW, { requests: 1, renders: 1, svg_renders: 1 })),
      ),
    );
    await store.db.write((tx) => store.billing.count(tx, tenant(a.id, 'test'), NOW, { requests: 5 }));
    const rows = await store.db.kysely
      .selectFrom('usage_daily')
      .selectAll()
      .where('account_id', '=', a.id)
      .orderBy('mode')
      .execute();
    t.equal(rows.length, 2);
    t.match(rows[0], { mode: 'live', day: '2026-03-10' });
    t.equal(Number(rows[0]!.requests), 10);
    t.equal(Number(rows[0]!.svg_renders), 10);
    t.equal(Number(rows[1]!.requests), 5);
  });

  t.test('fonts: personal fonts are visible to their account only', async (t) => {
    const a = await account();
    const b = await account();
    const caveat = (await store.fonts.listVisible(null))[0]!;
    const mine = await store.fonts.add({
      accountId: a.id,
      name: 'My hand',
      premium: false,
      license: 'proprietary',
      info: { family: 'Mine', glyphCount: 10, codepoints: 10, scripts: ['Latin'] },
      location: 'fonts/x.ttf',
      sha256: '0'.repeat(64),
      bytes: 100,
      now: NOW,
    });
    t.equal((await store.fonts.getVisible(a.id, mine.id))?.name, 'My hand');
    t.equal(await store.fonts.getVisible(b.id, mine.id), null, 'another account cannot see it');
    t.ok(await store.fonts.getVisible(b.id, caveat.id), 'shared fonts are visible to all');
    t.equal((await store.fonts.listVisible(a.id)).length, BUNDLED_FONTS.length + 1);
    t.equal((await store.fonts.listVisible(b.id)).length, BUNDLED_FONTS.length);

    // Renamed and removed by their account only; a shared font is neither.
    t.equal(await store.fonts.renamePersonal(b.id, mine.id, 'Taken'), null, 'not by another account');
    t.equal(
      await store.fonts.renamePersonal(a.id, caveat.id, 'Mine now'),
      null,
      'a shared font is not renamed',
    );
    t.equal((await store.fonts.getVisible(a.id, caveat.id))?.name, caveat.name);
    t.equal((await store.fonts.renamePersonal(a.id, mine.id, 'My best hand'))?.name, 'My best hand');
    t.equal(await store.fonts.removePersonal(b.id, mine.id), null, 'not removed by another account');
    t.equal(await store.fonts.removePersonal(a.id, caveat.id), null, 'a shared font is not removed');
    t.equal((await store.fonts.removePersonal(a.id, mine.id))?.location, 'fonts/x.ttf', 'the record it was');
    t.equal(await store.fonts.getVisible(a.id, mine.id), null, 'gone');
    t.equal(await store.fonts.removePersonal(a.id, mine.id), null, 'removed once');
    t.equal((await store.fonts.listVisible(null)).length, BUNDLED_FONTS.length, 'the shared fonts all stay');
  });

  t.test(
    'plan requests: one pending per account, decided once; an approval gives the plan and makes trial hands personal',
    async (t) => {
      const a = await account();
      const b = await account('basic', 30);
      const trial = await store.fonts.add({
        accountId: a.id,
        name: 'Trial hand',
        premium: false,
        license: TRIAL_LICENSE,
        info: { family: 'Trial', glyphCount: 10, codepoints: 10, scripts: ['Latin'] },
        location: 'fonts/trial.ttf',
        sha256: '1'.repeat(64),
        bytes: 100,
        now: NOW,
      });
      const asked = await store.planRequests.create({
        accountId: a.id,
        plan: 'pro',
        period: 30,
        note: 'our own hands',
        requestedBy: 'usr_x',
        now: NOW,
      });
      t.match(asked, {
        plan: 'pro',
        periodDays: 30,
        status: 'pending',
        fromPlan: 'none',
        note: 'our own hands',
      });
      t.match(asked.id, /^preq_\w{22}$/);
      await rejects(
        t,
        store.planRequests.create({
          accountId: a.id,
          plan: 'premium',
          note: '',
          requestedBy: null,
          now: NOW,
        }),
        /a request for plan pro made .* is pending/,
        'a second request while one is pending',
      );
      await rejects(
        t,
        store.planRequests.create({
          accountId: b.id,
          plan: 'basic',
          period: 30,
          note: '',
          requestedBy: null,
          now: NOW,
        }),
        /plan must differ from the account's plan, got "basic" for 30 days/,
        'the plan the account has',
      );
      await rejects(
        t,
        store.planRequests.create({ accountId: b.id, plan: 'gold', note: '', requestedBy: null, now: NOW }),
        /plan must be one of none, week, basic, pro, premium, got "gold"/,
        'a plan that does not exist',
      );
      const other = await store.planRequests.create({
        accountId: b.id,
        plan: 'premium',
        note: '',
        requestedBy: null,
        now: new Date(NOW.getTime() + 1000),
      });
      t.same(
        (await store.planRequests.list({ status: 'pending', limit: 10 })).data
          .map((r) => r.id)
          .filter((id) => [asked.id, other.id].includes(id)),
        [other.id, asked.id],
        'pending requests, newest first',
      );
      t.same(
        (await store.planRequests.list({ accountId: a.id, limit: 10 })).data.map((r) => r.id),
        [asked.id],
        "one account's",
      );

      const later = new Date(NOW.getTime() + 60_000);
      const approved = await store.planRequests.decide(asked.id, { status: 'approved', note: null }, later);
      t.match(approved?.request, { status: 'approved', decidedAt: later.toISOString() });
      t.match(approved?.account, { plan: 'pro', periodDays: 30, planAnchor: later.toISOString() });
      t.equal((await store.accounts.get(a.id))?.plan, 'pro', 'the account has the plan');
      t.equal(
        (await store.fonts.getVisible(a.id, trial.id))?.license,
        PERSONAL_LICENSE,
        'its trial hand is personal now',
      );
      t.equal(
        await store.planRequests.decide(asked.id, { status: 'refused', note: 'no' }, later),
        null,
        'decided once only',
      );
      t.equal(
        await store.planRequests.decide(
          other.id,
          { status: 'withdrawn', note: null, accountId: a.id },
          later,
        ),
        null,
        "another account's request is not withdrawn",
      );
      const refused = await store.planRequests.decide(
        other.id,
        { status: 'refused', note: 'by contract only' },
        later,
      );
      t.match(refused, { request: { status: 'refused', decisionNote: 'by contract only' }, account: null });
      t.equal((await store.accounts.get(b.id))?.plan, 'basic', 'a refusal changes no plan');
      const again = await store.planRequests.create({
        accountId: b.id,
        plan: 'pro',
        note: '',
        requestedBy: null,
        now: later,
      });
      t.equal(again.status, 'pending', 'after a decision the account may ask again');
    },
  );

  t.test('hands: kept per account, changed, the font rebuilt in place within the quota', async (t) => {
    const a = await account();
    const b = await account();
    const scan = {
      key: 'hands/x/1',
      type: 'image/jpeg' as const,
      width: 10,
      height: 20,
      bytes: 300,
      page: 1,
    };
    const hand = await store.hands.create({
      id: newId('hand'),
      accountId: a.id,
      name: 'My hand',
      sheet: 'SCR1-BASIC-A4',
      scans: [scan],
      now: NOW,
    });
    t.match(hand, { name: 'My hand', scans: [scan], edits: {}, fontId: null, builtAt: null });
    t.same(await store.hands.get(a.id, hand.id), hand, 'read back as made');
    t.equal(await store.hands.get(b.id, hand.id), null, 'invisible to another account');
    t.equal(await store.hands.update(b.id, hand.id, { name: 'x', now: NOW }), null, 'not changed by another');
    const later = new Date(NOW.getTime() + 1000);
    const changed = await store.hands.update(a.id, hand.id, {
      scans: [scan, { ...scan, key: 'hands/x/2', redo: ['a/2'] }],
      edits: { drawings: { 'b/1': { raise: 20 } }, spacing: { c: -5 } },
      fontId: 'font_x',
      builtAt: later,
      now: later,
    });
    t.match(changed, {
      name: 'My hand',
      scans: [{ key: 'hands/x/1' }, { key: 'hands/x/2', redo: ['a/2'] }],
      edits: { drawings: { 'b/1': { raise: 20 } }, spacing: { c: -5 } },
      fontId: 'font_x',
      builtAt: later.toISOString(),
      updatedAt: later.toISOString(),
      createdAt: NOW.toISOString(),
    });
    // Pictures added at once: each against the list as it stands, one picture a page left.
    const page2 = (n: number) => ({ ...scan, key: `hands/x/p2-${n}`, page: 2 });
    const added = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        store.hands.addScan(a.id, hand.id, page2(n), { replacesPage: true, most: 12, now: later }),
      ),
    );
    const now = (await store.hands.get(a.id, hand.id))!;
    t.same(
      now.scans.map((s) => `${s.page}${s.redo ? ' redo' : ''}`),
      ['1', '1 redo', '2'],
      'one picture of page 2, the first page and its redone drawings kept',
    );
    const dropped = added.flatMap((r) => r!.dropped.map((s) => s.key));
    t.same(
      [...dropped, now.scans.at(-1)!.key].sort(),
      Array.from({ length: 6 }, (_, n) => `hands/x/p2-${n}`).sort(),
      'every other picture of page 2 was let go, each once',
    );
    const redo = await store.hands.addScan(
      a.id,
      hand.id,
      { ...scan, key: 'hands/x/redo-2', redo: ['b/1'] },
      { replacesPage: false, most: 12, now: later },
    );
    t.same(redo?.dropped, [], 'a page written again replaces nothing');
    await rejects(
      t,
      store.hands.addScan(a.id, hand.id, page2(9), { replacesPage: false, most: 4, now: later }),
      /at most 4 pictures, it has 4/,
      'past the most a hand keeps',
    );
    t.equal(
      await store.hands.addScan(b.id, hand.id, page2(9), { replacesPage: true, most: 12, now: later }),
      null,
      'not to another account',
    );
    t.same(
      (await store.hands.list(a.id)).map((h) => h.id),
      [hand.id],
    );
    t.same(await store.hands.list(b.id), []);
    t.equal(await store.hands.remove(b.id, hand.id), null, 'not removed by another');
    t.equal((await store.hands.remove(a.id, hand.id))?.id, hand.id, 'removed, the record it was');
    t.equal(await store.hands.get(a.id, hand.id), null);

    const quota = { maxCount: 2, maxTotalBytes: 1000 };
    const font = await store.fonts.add({
      accountId: a.id,
      name: 'Built',
      premium: false,
      license: 'personal',
      info: { family: 'Built', glyphCount: 10, codepoints: 10, scripts: ['Latin'] },
      location: 'fonts/v1.ttf',
      sha256: '1'.repeat(64),
      bytes: 400,
      now: NOW,
      quota,
    });
    const file = (bytes: number) => ({
      info: { family: 'Built', glyphCount: 12, codepoints: 12, scripts: ['Latin'] },
      location: `fonts/v${bytes}.ttf`,
      sha256: '2'.repeat(64),
      bytes,
      quota,
    });
    t.equal(await store.fonts.replaceFile(b.id, font.id, file(500)), null, 'not by another account');
    const replaced = await store.fonts.replaceFile(a.id, font.id, file(900));
    t.match(replaced, {
      before: { location: 'fonts/v1.ttf', bytes: 400 },
      after: { id: font.id, name: 'Built', location: 'fonts/v900.ttf', bytes: 900, glyphCount: 12 },
    });
    t.match(await store.fonts.getVisible(a.id, font.id), {
      location: 'fonts/v900.ttf',
      sha256: '2'.repeat(64),
    });
    await rejects(
      t,
      store.fonts.replaceFile(a.id, font.id, file(1001)),
      /at most 1000 bytes/,
      'past the bytes quota',
    );
    t.equal((await store.fonts.getVisible(a.id, font.id))?.bytes, 900, 'unchanged by the refusal');
  });

  t.test(
    'personal fonts: the quota of count and bytes holds for racing adds over two connections',
    async (t) => {
      const a = await account();
      const other = await factory.open();
      const quota = { maxCount: 3, maxTotalBytes: 1000 };
      const add = (s: Store, i: number, bytes: number) =>
        s.fonts.add({
          accountId: a.id,
          name: `Hand ${i}`,
          premium: false,
          license: 'personal',
          info: { family: 'Mine', glyphCount: 10, codepoints: 10, scripts: ['Latin'] },
          location: `fonts/q${i}.ttf`,
          sha256: '0'.repeat(64),
          bytes,
          now: NOW,
          quota,
        });
      try {
        const raced = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) => add(i % 2 ? other : store, i, 100)),
        );
        t.equal(
          raced.filter((r) => r.status === 'fulfilled').length,
          3,
          'exactly 3 of 8 racing adds are kept',
        );
        const refused = raced.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        t.match(refused.reason, { kind: 'invalid', message: /at most 3 personal fonts, it holds 3 already/ });
        t.same(await store.fonts.personalUsage(a.id), { count: 3, bytes: 300 });
        const [first] = (await store.fonts.listVisible(a.id)).filter((f) => f.accountId === a.id);
        t.ok(await store.fonts.removePersonal(a.id, first!.id), 'one is removed');
        t.same(await store.fonts.personalUsage(a.id), { count: 2, bytes: 200 });
        await t.rejects(add(store, 9, 801), {
          message: /personal fonts may total at most 1000 bytes, it holds 200 and this one is 801/,
        });
        t.equal((await add(store, 10, 700)).bytes, 700, 'one that fits is kept');
        t.same(await store.fonts.personalUsage(a.id), { count: 3, bytes: 900 });
      } finally {
        await other.close();
      }
    },
  );

  const job = (id = newId('gen'), kind: 'pdf' | 'preview' = 'pdf') => ({
    id,
    kind,
    templateId: newId('tpl'),
    templateRevision: 1,
    template: template(),
    input: { text: 'Dear friend' },
    inputHash: 'h',
    spec: specOf(template(), { text: 'Dear friend' }),
  });
  const LIMITS = { unfinished: 2, queued: 32 };

  t.test('jobs: 25 racing submissions of one account, over two connections, admit exactly 2', async (t) => {
    const a = await account('pro', 30);
    const other = await factory.open();
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) =>
        (i % 2 ? other : store).generations.submit(tenant(a.id), job(), LIMITS, NOW),
      ),
    );
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 2, 'two admitted');
    const refused = results
      .filter((r) => r.status === 'rejected')
      .map((r) => (r as PromiseRejectedResult).reason as Refusal);
    t.ok(
      refused.length === 23 && refused.every((e) => e.kind === 'limit' && e.retryAfter === 60),
      '23 refused as over a limit, try again in 60 s',
    );
    t.equal(refused.filter((e) => /2 unfinished jobs/.test(e.message)).length, 23);
    const free = await account();
    await rejects(
      t,
      store.generations.submit(tenant(free.id), job(), LIMITS, NOW),
      /no plan sheets or extra balance left/,
      'no allowance: 402',
    );
    await store.generations.submit(tenant(free.id), job(newId('gen'), 'preview'), LIMITS, NOW);
    t.pass('a preview needs no allowance');
  });

  t.test('jobs: where instances share a queue, each admits up to its own queued limit', async (t) => {
    const limits = (instance: string) => ({ unfinished: 2, queued: 2, instance });
    const accounts = await Promise.all([1, 2, 3, 4].map(() => account('pro', 30)));
    await store.generations.submit(tenant(accounts[0]!.id), job(), limits('api-a'), NOW);
    await store.generations.submit(tenant(accounts[1]!.id), job(), limits('api-a'), NOW);
    await rejects(
      t,
      store.generations.submit(tenant(accounts[2]!.id), job(), limits('api-a'), NOW),
      /the queue holds 2 jobs, the most allowed is 2/,
      'api-a is full',
    );
    const b = await store.generations.submit(tenant(accounts[2]!.id), job(), limits('api-b'), NOW);
    t.equal(b.status, 'queued', 'api-b still admits: the jobs of api-a are not its own');
    const row = await store.db.kysely
      .selectFrom('generations')
      .select('admitted_by')
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    t.equal(row.admitted_by, 'api-b', 'the job records who admitted it');
    await store.generations.claim(b.id, NOW);
    await store.generations.submit(tenant(accounts[3]!.id), job(), limits('api-b'), NOW);
    t.pass('a claimed job no longer counts as queued on its instance');
  });

  /** A batch of `rows` rows (with envelopes: two documents a row). */
  const batch = (rows: number, envelopes = false) => {
    const id = newId('bat');
    const jobs = Array.from({ length: rows }, (_, index) =>
      (envelopes ? (['letter', 'envelope'] as const) : (['letter'] as const)).map((part) => ({
        ...job(),
        row: { batchId: id, index, seed: index + 1, part },
      })),
    ).flat();
    return {
      id,
      templateId: newId('tpl'),
      templateRevision: 1,
      metadata: {},
      rowEvents: false,
      merge: false,
      envelopeTemplateId: envelopes ? newId('tpl') : null,
      rowCount: rows,
      rows: jobs,
      estimate: { pages: jobs.length, milli: jobs.length * A4 },
    };
  };
  const finishRow = async (id: string) => {
    const claimed = (await store.generations.claim(id, NOW))!;
    const out = {
      pages: 1,
      blobKey: `outputs/${id}/1.pdf`,
      sha256: 'cd'.repeat(32),
      bytes: 10,
      milliPerPage: A4,
      expiresAt: '2026-03-17T12:00:00.000Z',
    };
    return store.generations.complete(id, claimed.attempt, out, NOW);
  };

  t.test(
    'batches: one unfinished job however many rows; the last row ends it once, with its event',
    async (t) => {
      const a = await account('pro', 30);
      await store.webhooks.addEndpoint(
        tenant(a.id),
        { url: 'https://example.com/h', events: ['batch.completed'], description: '', secret: 's' },
        NOW,
      );
      const b = batch(3, true);
      const made = await store.batches.submit(tenant(a.id), b, LIMITS, NOW);
      t.match(made, { id: b.id, status: 'queued', rowCount: 3 });
      await store.generations.submit(tenant(a.id), job(), LIMITS, NOW);
      await rejects(
        t,
        store.batches.submit(tenant(a.id), batch(1), LIMITS, NOW),
        /2 unfinished jobs, the most allowed is 2/,
        'the batch and one job fill the two unfinished jobs',
      );
      t.same(
        (await store.batches.nextRows(b.id, 3)).map((r) => r.id),
        b.rows.slice(0, 3).map((r) => r.id),
        'the first unfinished documents in row order, a letter before its envelope',
      );
      for (const r of b.rows.slice(0, 5)) await finishRow(r.id);
      t.equal(
        (await store.batches.get(tenant(a.id), b.id))!.status,
        'queued',
        'unfinished while a document is left',
      );
      await finishRow(b.rows[5]!.id);
      const ended = (await store.batches.get(tenant(a.id), b.id))!;
      t.equal(ended.status, 'completed');
      t.ok(ended.completedAt, 'dated');
      t.match(await store.batches.counts(b.id), {
        completed: 3,
        envelopes: { completed: 3 },
        pages: 6,
        creditsMilli: 6 * A4,
      });
      const events = await store.db.kysely
        .selectFrom('webhook_deliveries')
        .select(['event_type', 'job_id', 'body'])
        .where('account_id', '=', a.id)
        .execute();
      t.same(
        events.map((e) => [e.event_type, e.job_id]),
        [['batch.completed', b.id]],
        'batch.completed once, and no row events',
      );
      t.match(JSON.parse(events[0]!.body), {
        data: { batch: { id: b.id, rows: { total: 3, completed: 3 } } },
      });
      const page = await store.batches.rows(b.id, { limit: 2 });
      t.same(
        page.data.map((r) => [r.letter.rowIndex, r.envelope?.part]),
        [
          [0, 'envelope'],
          [1, 'envelope'],
        ],
      );
      t.equal(page.nextCursor, '2');
    },
  );

  t.test(
    'batches: cancel takes the rows not started, uncharged; the batch ends when its last running row does',
    async (t) => {
      const a = await account('pro', 30);
      const b = batch(4);
      await store.batches.submit(tenant(a.id), b, LIMITS, NOW);
      const running = (await store.generations.claim(b.rows[0]!.id, NOW))!;
      const cancelled = (await store.batches.cancel(tenant(a.id), b.id, NOW))!;
      t.equal(cancelled.cancelled, 3, 'three queued rows cancelled');
      t.equal(cancelled.batch.status, 'queued', 'still running one row');
      t.ok(cancelled.batch.cancelledAt);
      t.same((await store.batches.cancel(tenant(a.id), b.id, NOW))?.cancelled, 0, 'again: nothing more');
      const out = {
        pages: 2,
        blobKey: 'outputs/c/1.pdf',
        sha256: 'ef'.repeat(32),
        bytes: 10,
        milliPerPage: A4,
        expiresAt: '2026-03-17T12:00:00.000Z',
      };
      t.equal(
        (await store.generations.complete(running.id, running.attempt, out, NOW)).outcome,
        'completed',
        'the running row finishes',
      );
      t.equal(
        (await store.batches.get(tenant(a.id), b.id))!.status,
        'cancelled',
        'then the batch ends cancelled',
      );
      const charges = await store.db.kysely
        .selectFrom('ledger')
        .select('job_id')
        .where(
          'job_id',
          'in',
          b.rows.map((r) => r.id),
        )
        .execute();
      t.same(
        charges.map((c) => c.job_id),
        [running.id],
        'only the row that ran is charged',
      );
      t.equal(await store.batches.cancel(tenant(a.id), newId('bat'), NOW), null, 'an unknown batch is none');
      t.equal(
        await store.batches.get(tenant(a.id, 'test'), b.id),
        null,
        'the other key mode does not see it',
      );
    },
  );

  t.test('jobs: the render specification is stored with the job, as submitted', async (t) => {
    const a = await account('pro', 30);
    const submitted = job();
    await store.generations.submit(tenant(a.id), submitted, LIMITS, NOW);
    t.same(await store.generations.renderSpec(submitted.id), submitted.spec, 'read back whole');
    await store.db.kysely
      .updateTable('generations')
      .set({ render_spec: null })
      .where('id', '=', submitted.id)
      .execute();
    t.equal(
      await store.generations.renderSpec(submitted.id),
      null,
      'a job admitted before specs were stored has none',
    );
  });

  t.test('jobs: only the newest attempt finishes a job, and it is charged once', async (t) => {
    const a = await account('pro', 30);
    const j = await store.generations.submit(tenant(a.id), job(), LIMITS, NOW);
    const first = (await store.generations.claim(j.id, NOW))!;
    const second = (await store.generations.claim(j.id, NOW))!; // taken over after a crash
    t.same([first.attempt, second.attempt, second.status], [1, 2, 'processing']);
    const out = {
      pages: 3,
      blobKey: 'outputs/x/1.pdf',
      sha256: 'ab'.repeat(32),
      bytes: 1234,
      milliPerPage: A4,
      expiresAt: '2026-03-17T12:00:00.000Z',
    };
    t.equal(
      (await store.generations.complete(j.id, 1, out, NOW)).outcome,
      'stale',
      'the old attempt cannot complete it',
    );
    t.equal(
      await store.generations.fail(j.id, 1, { code: 'GENERATION_FAILED', message: 'x' }, NOW),
      null,
      'nor fail it',
    );
    const done = await store.generations.complete(j.id, 2, { ...out, blobKey: 'outputs/x/2.pdf' }, NOW);
    t.equal(done.outcome, 'completed');
    t.match(done.job, {
      status: 'completed',
      pages: 3,
      creditsMilli: 4500,
      blobKey: 'outputs/x/2.pdf',
      blobDigest: { sha256: 'ab'.repeat(32), bytes: 1234 },
    });
    t.equal(
      (await store.generations.complete(j.id, 2, out, NOW)).outcome,
      'stale',
      'a repeated commit changes nothing',
    );
    t.equal(await store.generations.claim(j.id, NOW), null, 'a finished job is not claimed');
    const charges = await store.db.kysely
      .selectFrom('ledger')
      .selectAll()
      .where('job_id', '=', j.id)
      .execute();
    t.equal(charges.length, 1, 'one charge');
  });

  t.test('jobs: a job taken its most times without finishing fails, uncharged, counted once', async (t) => {
    const a = await account('pro', 30);
    const j = await store.generations.submit(tenant(a.id), job(), LIMITS, NOW);
    for (let n = 1; n <= 3; n++)
      t.equal((await store.generations.claim(j.id, NOW, 3))?.attempt, n, `attempt ${n}`);
    t.equal(await store.generations.claim(j.id, NOW, 3), null, 'a fourth is refused');
    const failed = (await store.generations.find(j.id))!;
    t.match(failed, { status: 'failed', attempt: 3, error: { code: 'GENERATION_FAILED' } });
    t.match(failed.error!.message, /started 3 times.*nothing was charged/);
    t.equal(await store.generations.claim(j.id, NOW, 3), null, 'and it stays failed');
    const usage = await store.billing.usageBetween(tenant(a.id), '2026-01-01', '2027-01-01');
    t.equal(usage.failed_generations, 1, 'counted as failed once');
    const charges = await store.db.kysely
      .selectFrom('ledger')
      .selectAll()
      .where('job_id', '=', j.id)
      .execute();
    t.equal(charges.length, 0, 'nothing charged');
  });

  t.test('jobs: cancel racing the completion commit, over two connections: exactly one wins', async (t) => {
    const a = await account('pro', 30);
    const other = await factory.open();
    for (let i = 0; i < 12; i++) {
      const j = await store.generations.submit(tenant(a.id), job(), LIMITS, NOW);
      await store.generations.claim(j.id, NOW);
      const out = {
        pages: 1,
        blobKey: `outputs/x/${j.id}.pdf`,
        sha256: 'cd'.repeat(32),
        bytes: 10,
        milliPerPage: A4,
        expiresAt: '2026-03-17T12:00:00.000Z',
      };
      const [completion, cancel] = await Promise.allSettled([
        (i % 2 ? other : store).generations.complete(j.id, 1, out, NOW),
        (i % 2 ? store : other).generations.cancel(tenant(a.id), j.id, NOW),
      ]);
      const final = (await store.generations.find(j.id))!;
      const charges = await store.db.kysely
        .selectFrom('ledger')
        .selectAll()
        .where('job_id', '=', j.id)
        .execute();
      if (final.status === 'completed') {
        t.ok(completion.status === 'fulfilled' && completion.value.outcome === 'completed', 'the commit won');
        t.ok(
          cancel.status === 'rejected' &&
            /completed and can no longer be cancelled/.test((cancel.reason as Error).message),
          'the cancel was refused',
        );
        t.equal(charges.length, 1, 'charged once');
      } else {
        t.equal(final.status, 'cancelled');
        t.ok(
          completion.status === 'fulfilled' && completion.value.outcome === 'stale',
          'the commit saw the cancel',
        );
        t.equal(charges.length, 0, 'nothing charged');
      }
    }
    t.same(
      (await store.generations.unfinished()).filter((u) => u.accountId === a.id),
      [],
      'nothing left unfinished',
    );
  });

  t.test('jobs: moves never go backwards; the sweeper finds expired outputs', async (t) => {
    const a = await account('pro', 30);
    const j = await store.generations.submit(tenant(a.id), job(), LIMITS, NOW);
    const cancelled = (await store.generations.cancel(tenant(a.id), j.id, NOW))!;
    t.equal(cancelled.status, 'cancelled');
    t.equal(await store.generations.claim(j.id, NOW), null, 'a cancelled job is never run');
    t.equal(
      await store.generations.cancel(tenant('acc_other'), j.id, NOW),
      null,
      'another account cannot touch it',
    );
    const k = await store.generations.submit(tenant(a.id), job(), LIMITS, NOW);
    await store.generations.claim(k.id, NOW);
    await store.generations.complete(
      k.id,
      1,
      {
        pages: 1,
        blobKey: `outputs/${k.id}.pdf`,
        sha256: 'ef'.repeat(32),
        bytes: 10,
        milliPerPage: A4,
        expiresAt: '2026-03-11T12:00:00.000Z',
      },
      NOW,
    );
    t.same(await store.generations.expired(NOW, 10), [], 'not yet expired');
    const later = new Date('2026-03-12T00:00:00.000Z');
    t.same(await store.generations.expired(later, 10), [{ id: k.id, blobKey: `outputs/${k.id}.pdf` }]);
    await store.generations.clearBlob(k.id, `outputs/${k.id}.pdf`, later);
    t.same(await store.generations.expired(later, 10), []);
    t.equal((await store.generations.find(k.id))!.status, 'completed', 'still completed');
  });

  t.test(
    'jobs: metadata is stored with the job and read back; list filters by kind and creation time',
    async (t) => {
      const a = await account('pro', 30);
      const at = (iso: string) => new Date(iso);
      const labelled = await store.generations.submit(
        tenant(a.id),
        { ...job(), metadata: { order: 'A-17', customer: 'c_9' } },
        { unfinished: 10, queued: 32 },
        at('2026-03-10T09:00:00.000Z'),
      );
      t.same(labelled.metadata, { order: 'A-17', customer: 'c_9' });
      t.same(
        (await store.generations.get(tenant(a.id), labelled.id))!.metadata,
        labelled.metadata,
        'read back',
      );
      const plain = await store.generations.submit(
        tenant(a.id),
        job(newId('gen'), 'preview'),
        { unfinished: 10, queued: 32 },
        at('2026-03-10T11:00:00.000Z'),
      );
      t.same(plain.metadata, {}, 'none sent: empty');
      const ids = async (o: Parameters<typeof store.generations.list>[1]) =>
        (await store.generations.list(tenant(a.id), o)).data.map((j) => j.id);
      t.same(await ids({ limit: 10, kind: 'preview' }), [plain.id], 'by kind');
      t.same(
        await ids({ limit: 10, created: { from: '2026-03-10T10:00:00.000Z' } }),
        [plain.id],
        'from is inclusive of later jobs only',
      );
      t.same(
        await ids({ limit: 10, created: { to: '2026-03-10T11:00:00.000Z' } }),
        [labelled.id],
        'to is exclusive',
      );
      t.same(
        await ids({
          limit: 10,
          created: { from: '2026-03-10T09:00:00.000Z', to: '2026-03-10T11:00:00.001Z' },
        }),
        [plain.id, labelled.id],
        'both, newest first',
      );
    },
  );

  const idem = { endpoint: 'POST /api/v1/generations', fingerprint: 'f1' };
  const TIMES = { ttlMs: 24 * 3600_000, leaseMs: 60_000 };
  const reply = (body: string) => ({ status: 202, headers: { Location: '/x' }, body });

  t.test(
    'idempotency: a key is taken once; its answer is kept in the commit of the job it made',
    async (t) => {
      const a = await account('pro', 30);
      const first = await store.idempotency.take(tenant(a.id), 'k-1', idem, NOW, TIMES);
      if (first.state !== 'taken') throw new Error(`expected taken, got ${first.state}`);
      t.match(
        await store.idempotency.take(tenant(a.id), 'k-1', idem, NOW, TIMES),
        { state: 'running' },
        'in flight',
      );
      t.match(
        await store.idempotency.take(tenant(a.id), 'k-1', { ...idem, fingerprint: 'f2' }, NOW, TIMES),
        { state: 'mismatch', endpoint: idem.endpoint },
        'another body',
      );
      t.match(
        await store.idempotency.take(
          tenant(a.id),
          'k-1',
          { endpoint: 'POST /api/v1/previews', fingerprint: 'f1' },
          NOW,
          TIMES,
        ),
        { state: 'mismatch', endpoint: idem.endpoint },
        'another endpoint',
      );
      t.match(
        await store.idempotency.take(tenant(a.id, 'test'), 'k-1', idem, NOW, TIMES),
        { state: 'taken' },
        'the other key mode has keys of its own',
      );
      const submitted = job();
      const made = await store.generations.submit(tenant(a.id), submitted, LIMITS, NOW, {
        claim: first.claim,
        reply: reply(JSON.stringify({ id: submitted.id })),
      });
      t.same(made, admittedJob(tenant(a.id), submitted, NOW), 'the job recorded is the job as admitted');
      t.same(
        await store.idempotency.take(tenant(a.id), 'k-1', idem, NOW, TIMES),
        { state: 'done', createdAt: NOW.toISOString(), reply: reply(JSON.stringify({ id: made.id })) },
        'the kept answer names the job',
      );
      await store.idempotency.settle(first.claim, reply('other'));
      t.match(
        await store.idempotency.take(tenant(a.id), 'k-1', idem, NOW, TIMES),
        { state: 'done', reply: { body: JSON.stringify({ id: made.id }) } },
        'settling again changes nothing',
      );
      const later = new Date(NOW.getTime() + TIMES.ttlMs);
      t.match(
        await store.idempotency.take(tenant(a.id), 'k-1', idem, later, TIMES),
        { state: 'taken' },
        'forgotten after 24 h',
      );
    },
  );

  t.test('idempotency: a released key runs again; a refused commit keeps nothing', async (t) => {
    const a = await account('pro', 30);
    const taken = await store.idempotency.take(tenant(a.id), 'k-2', idem, NOW, TIMES);
    if (taken.state !== 'taken') throw new Error(taken.state);
    await store.idempotency.release(taken.claim);
    const again = await store.idempotency.take(tenant(a.id), 'k-2', idem, NOW, TIMES);
    t.equal(again.state, 'taken', 'released: a retry takes it');
    if (again.state !== 'taken') return;
    const free = await account();
    const freeTaken = await store.idempotency.take(tenant(free.id), 'k-2', idem, NOW, TIMES);
    if (freeTaken.state !== 'taken') throw new Error(freeTaken.state);
    await rejects(
      t,
      store.generations.submit(tenant(free.id), job(), LIMITS, NOW, {
        claim: freeTaken.claim,
        reply: reply('x'),
      }),
      /no plan sheets/,
      'a refused admission',
    );
    t.match(
      await store.idempotency.take(tenant(free.id), 'k-2', idem, NOW, TIMES),
      { state: 'running' },
      'the refused commit kept no answer (the key is still held until released)',
    );
  });

  t.test(
    'idempotency: a key whose request died is taken over after its lease; the late commit is refused and makes nothing',
    async (t) => {
      const a = await account('pro', 30);
      const dead = await store.idempotency.take(tenant(a.id), 'k-3', idem, NOW, TIMES);
      if (dead.state !== 'taken') throw new Error(dead.state);
      const early = new Date(NOW.getTime() + TIMES.leaseMs - 1);
      t.match(
        await store.idempotency.take(tenant(a.id), 'k-3', idem, early, TIMES),
        { state: 'running' },
        'within the lease',
      );
      t.match(
        await store.idempotency.take(
          tenant(a.id),
          'k-3',
          { ...idem, fingerprint: 'f2' },
          new Date(NOW.getTime() + TIMES.leaseMs),
          TIMES,
        ),
        { state: 'mismatch' },
        'another body never takes it over',
      );
      const after = new Date(NOW.getTime() + TIMES.leaseMs);
      const heir = await store.idempotency.take(tenant(a.id), 'k-3', idem, after, TIMES);
      t.equal(heir.state, 'taken', 'after the lease: taken over');
      const late = job();
      try {
        await store.generations.submit(tenant(a.id), late, LIMITS, after, {
          claim: dead.claim,
          reply: reply('late'),
        });
        t.fail('the late commit must be refused');
      } catch (err) {
        t.match(err, { kind: 'conflict', field: 'Idempotency-Key' }, 'refused as taken over');
      }
      t.equal(await store.generations.find(late.id), null, 'and its job was rolled back');
    },
  );

  t.test('idempotency: 20 racing requests over two connections: exactly one takes the key', async (t) => {
    const a = await account('pro', 30);
    const other = await factory.open();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? other : store).idempotency.take(tenant(a.id), 'race', idem, NOW, TIMES),
      ),
    );
    t.equal(results.filter((r) => r.state === 'taken').length, 1, 'one taken');
    t.equal(results.filter((r) => r.state === 'running').length, 19, 'nineteen told it is in flight');
    t.equal(
      await store.idempotency.sweep(new Date(NOW.getTime() + TIMES.ttlMs - 1), TIMES.ttlMs),
      0,
      'kept a day',
    );
    t.ok(
      (await store.idempotency.sweep(new Date(NOW.getTime() + TIMES.ttlMs), TIMES.ttlMs)) >= 1,
      'then swept',
    );
  });

  const finish = async (
    accountId: string,
    mode: 'live' | 'test' = 'live',
    kind: 'pdf' | 'preview' = 'pdf',
  ) => {
    const j = await store.generations.submit(
      tenant(accountId, mode),
      job(newId('gen'), kind),
      { unfinished: 50, queued: 50 },
      NOW,
    );
    await store.generations.claim(j.id, NOW);
    const done = await store.generations.complete(
      j.id,
      1,
      {
        pages: 1,
        blobKey: `outputs/${j.id}.pdf`,
        sha256: 'ab'.repeat(32),
        bytes: 10,
        milliPerPage: A4,
        expiresAt: '2026-03-17T12:00:00.000Z',
      },
      NOW,
    );
    return done.job!;
  };
  const topUpFor = (accountId: string) => store.billing.topUp(tenant(accountId), 1000, NOW);
  /** Takes the deliveries earlier tests left due out of the way (leased for a year). */
  const drain = () => store.webhooks.claim(NOW, 1000, 365 * 86_400_000);
  const hook = (url = 'https://example.test/hook', events?: string[]) => ({
    url,
    events: (events ?? [
      'generation.completed',
      'generation.failed',
      'preview.completed',
      'preview.failed',
    ]) as never,
    description: '',
    secret: `whsec_${'s'.repeat(32)}`,
  });

  t.test(
    'webhooks: a finished job writes one delivery per endpoint that takes its event, in its own commit',
    async (t) => {
      const a = await account('pro', 30);
      await topUpFor(a.id);
      const all = await store.webhooks.addEndpoint(tenant(a.id), hook('https://a.test/all'), NOW);
      await store.webhooks.addEndpoint(
        tenant(a.id),
        hook('https://a.test/previews', ['preview.completed']),
        NOW,
      );
      await store.webhooks.addEndpoint(tenant(a.id, 'test'), hook('https://a.test/test-mode'), NOW);
      const j = await finish(a.id);
      const page = await store.webhooks.listDeliveries({ limit: 10, jobId: j.id });
      t.equal(page.data.length, 1, 'one delivery: only the live endpoint that takes generation.completed');
      const d = page.data[0]!;
      t.match(d, { endpointId: all.id, eventType: 'generation.completed', status: 'pending', attempts: 0 });
      const shown = await store.webhooks.getDelivery(d.id);
      const body = JSON.parse(shown!.body);
      t.match(body, {
        id: d.eventId,
        type: 'generation.completed',
        data: { generation: { id: j.id, status: 'completed', pages: 1 } },
      });
      const failed = await store.generations.submit(tenant(a.id), job(), { unfinished: 50, queued: 50 }, NOW);
      await store.generations.claim(failed.id, NOW);
      await store.generations.fail(failed.id, 1, { code: 'GENERATION_FAILED', message: 'x' }, NOW);
      t.match((await store.webhooks.listDeliveries({ limit: 10, jobId: failed.id })).data, [
        { eventType: 'generation.failed' },
      ]);
      const p = await finish(a.id, 'live', 'preview');
      t.equal(
        (await store.webhooks.listDeliveries({ limit: 10, jobId: p.id })).data.length,
        2,
        'a preview: both live endpoints',
      );
      const cancelled = await store.generations.submit(
        tenant(a.id),
        job(),
        { unfinished: 50, queued: 50 },
        NOW,
      );
      await store.generations.cancel(tenant(a.id), cancelled.id, NOW);
      t.equal(
        (await store.webhooks.listDeliveries({ limit: 10, jobId: cancelled.id })).data.length,
        0,
        'a cancel makes none',
      );
      const stale = await store.generations.complete(
        cancelled.id,
        1,
        {
          pages: 1,
          blobKey: 'x',
          sha256: 'ab'.repeat(32),
          bytes: 1,
          milliPerPage: A4,
          expiresAt: NOW.toISOString(),
        },
        NOW,
      );
      t.equal(stale.outcome, 'stale');
      t.equal(
        (await store.webhooks.listDeliveries({ limit: 10, jobId: cancelled.id })).data.length,
        0,
        'nor a commit that lost',
      );
    },
  );

  t.test(
    'webhooks: a test event to one endpoint; deliveries narrowed by key mode and endpoint',
    async (t) => {
      const a = await account('pro', 30);
      await drain();
      const live = await store.webhooks.addEndpoint(tenant(a.id), hook('https://a.test/live'), NOW);
      const test = await store.webhooks.addEndpoint(tenant(a.id, 'test'), hook('https://a.test/test'), NOW);
      t.same(await store.webhooks.getEndpoint(test.id), test, 'an endpoint read back as it was added');
      const sent = await store.webhooks.enqueueTest(test, NOW);
      t.match(sent, {
        eventType: 'webhook.test',
        endpointId: test.id,
        accountId: a.id,
        mode: 'test',
        jobId: null,
        status: 'pending',
        attempts: 0,
      });
      t.match(JSON.parse((await store.webhooks.getDelivery(sent.id))!.body), {
        id: sent.eventId,
        type: 'webhook.test',
        data: { endpoint: { id: test.id, url: 'https://a.test/test', mode: 'test' } },
      });
      await store.webhooks.enqueueTest(live, NOW);
      const ids = async (f: { mode?: 'live' | 'test'; endpointId?: string }) =>
        (await store.webhooks.listDeliveries({ limit: 10, accountId: a.id, ...f })).data.map(
          (d) => d.endpointId,
        );
      t.same(await ids({ mode: 'test' }), [test.id], 'test deliveries only');
      t.same(await ids({ mode: 'live' }), [live.id], 'live deliveries only');
      t.same(await ids({ endpointId: live.id }), [live.id], 'one endpoint');
      const [claimed] = await store.webhooks.claim(NOW, 10, 60_000);
      t.ok(claimed, 'a test delivery is claimed as any');
      t.equal(
        (
          await store.webhooks.recordAttempt(
            claimed!,
            { statusCode: 200, error: null, durationMs: 3, at: NOW },
            1000,
            NOW,
          )
        )?.status,
        'delivered',
      );
      await store.webhooks.removeEndpoint(test.id, NOW);
      t.equal(await store.webhooks.getEndpoint(test.id), null, 'a removed endpoint is not read');
    },
  );

  t.test(
    'webhooks: claims are leased (two dispatchers never hold one delivery); tries follow the schedule',
    async (t) => {
      const a = await account('pro', 30);
      await topUpFor(a.id);
      await store.webhooks.addEndpoint(tenant(a.id), hook(), NOW);
      await drain();
      for (let i = 0; i < 6; i++) await finish(a.id);
      const other = await factory.open();
      const [x, y] = await Promise.all([
        store.webhooks.claim(NOW, 4, 60_000),
        other.webhooks.claim(NOW, 4, 60_000),
      ]);
      const ids = [...x, ...y].map((c) => c.delivery.id);
      t.equal(new Set(ids).size, ids.length, 'no delivery held twice');
      t.equal(ids.length, 6, `between them they took every due one (${x.length} + ${y.length})`);
      t.same(await store.webhooks.claim(NOW, 10, 60_000), [], 'nothing left while leased');
      const c = x[0]!;
      const base = 1000;
      let d = await store.webhooks.recordAttempt(
        c,
        { statusCode: 500, error: 'HTTP 500', durationMs: 3, at: NOW },
        base,
        NOW,
      );
      t.match(d, {
        status: 'pending',
        attempts: 1,
        lastStatus: 500,
        nextAttemptAt: new Date(NOW.getTime() + base).toISOString(),
      });
      t.equal(
        await store.webhooks.recordAttempt(
          c,
          { statusCode: 200, error: null, durationMs: 3, at: NOW },
          base,
          NOW,
        ),
        null,
        'a lease used once is spent: a second record is refused',
      );
      let at = NOW;
      for (let i = 2; i <= 11; i++) {
        at = new Date(d!.nextAttemptAt!);
        const [again] = (await store.webhooks.claim(at, 50, 60_000)).filter(
          (k) => k.delivery.id === c.delivery.id,
        );
        t.ok(again, `due again for try ${i}`);
        d = await store.webhooks.recordAttempt(
          again!,
          { statusCode: null, error: 'timeout', durationMs: 3, at },
          base,
          at,
        );
        if (i < 11) t.equal(d!.status, 'pending');
      }
      t.equal(d!.status, 'failed', 'after 11 tries: failed');
      t.equal(d!.nextAttemptAt, null);
      const log = await store.webhooks.getDelivery(c.delivery.id);
      t.equal(log!.attempts.length, 11, 'every try logged');
      const again = await store.webhooks.redeliver(c.delivery.id, at);
      t.match(again, { status: 'pending', nextAttemptAt: at.toISOString() });
      const [fresh] = (await store.webhooks.claim(at, 50, 60_000)).filter(
        (k) => k.delivery.id === c.delivery.id,
      );
      d = await store.webhooks.recordAttempt(
        fresh!,
        { statusCode: 503, error: 'HTTP 503', durationMs: 3, at },
        base,
        at,
      );
      t.match(
        d,
        { status: 'pending', attempts: 12, nextAttemptAt: new Date(at.getTime() + base).toISOString() },
        'a redelivery starts the schedule again',
      );
      const [last] = (await store.webhooks.claim(new Date(at.getTime() + base), 50, 60_000)).filter(
        (k) => k.delivery.id === c.delivery.id,
      );
      d = await store.webhooks.recordAttempt(
        last!,
        { statusCode: 204, error: null, durationMs: 3, at },
        base,
        at,
      );
      t.match(d, { status: 'delivered', deliveredAt: at.toISOString() });
      const expired = new Date(at.getTime() + 120_000);
      t.ok(
        (await store.webhooks.claim(expired, 50, 60_000)).length >= 1,
        'a lease that ran out frees the others',
      );
    },
  );

  t.test(
    'webhooks: endpoints are capped at 10 per account; a removed one gets nothing and its pending deliveries fail',
    async (t) => {
      const a = await account('pro', 30);
      await topUpFor(a.id);
      const first = await store.webhooks.addEndpoint(tenant(a.id), hook(), NOW);
      for (let i = 1; i < 10; i++)
        await store.webhooks.addEndpoint(tenant(a.id, i % 2 ? 'test' : 'live'), hook(), NOW);
      await rejects(
        t,
        store.webhooks.addEndpoint(tenant(a.id), hook(), NOW),
        /at most 10 webhook endpoints, it has 10/,
        'the 11th',
      );
      const j = await finish(a.id);
      await store.webhooks.removeEndpoint(first.id, NOW);
      t.equal((await store.webhooks.listEndpoints(a.id)).length, 9);
      const due = await store.webhooks.claim(NOW, 50, 60_000);
      t.notOk(
        due.some((c) => c.delivery.endpointId === first.id),
        'not sent to a removed endpoint',
      );
      const [d] = (await store.webhooks.listDeliveries({ limit: 10, jobId: j.id })).data.filter(
        (x) => x.endpointId === first.id,
      );
      t.match(d, { status: 'failed', lastError: 'the endpoint was removed' });
      await store.webhooks.addEndpoint(tenant(a.id), hook(), NOW);
      t.pass('a removed endpoint frees its place');
    },
  );
}

// Plan change requests over the real server (docs/decisions.md, "A hand for every plan"): an
// owner asks for a plan in the dashboard's API, bad input is refused by field and changes nothing,
// one request is pending at a time; the operator lists them in the admin API and refuses one with
// a reason the account then sees, or approves one, which gives the account the plan at once. A
// request decided once is not decided again; a pending one can be withdrawn.
import t from 'tap';
import { dashboardCall, signUpOverHttp } from '../helpers/dashboard-api.ts';
import { call, startTestServer } from '../helpers/server.ts';

const TOKEN = 'plan-requests-admin-token-0123456789';
const server = await startTestServer(t, { adminToken: TOKEN });
const admin = { authorization: `Bearer ${TOKEN}` };
const A = (path: string) => `//admin/v1${path}`;

t.test('asked in the dashboard, refused with a reason, asked again, approved', async (t) => {
  const s = await signUpOverHttp(server, 'owner@plans.example');
  const ask = (body: unknown) => dashboardCall(server, s, 'POST', '/plan-requests', JSON.stringify(body));
  const state = async () => (await dashboardCall(server, s, 'GET', '/plan-requests')).body;

  const first = await state();
  t.match(
    first.plan,
    { id: 'none', name: 'No subscription', personalFonts: false },
    'the plan a new account has',
  );
  t.same(
    first.plans.filter((p: { personalFonts: boolean }) => p.personalFonts).map((p: { id: string }) => p.id),
    ['pro', 'premium'],
    'the plans that include personal fonts',
  );
  t.same(first.data, [], 'no request yet');

  for (const [body, field, said] of [
    [{ plan: 'gold' }, undefined, /plan must be one of none, week, basic, pro, premium, got "gold"/],
    [{ plan: 7 }, 'plan', /plan must be a plan's id .*, got 7/],
    [{ plan: 'pro', period: 14 }, undefined, /period of plan pro must be 7 or 30 days, got 14/],
    [{ plan: 'pro', note: 'x'.repeat(501) }, 'note', /note must be text of 0 to 500 characters/],
    [{ plan: 'pro', colour: 'blue' }, 'colour', /colour/],
    [{ plan: 'none' }, 'plan', /plan must differ from the account's plan, got "none"/],
  ] as const) {
    const r = await ask(body);
    t.equal(r.status, 400, `${JSON.stringify(body).slice(0, 40)}: 400`);
    t.equal(r.body.error.code, 'INVALID_REQUEST');
    t.match(r.body.error.message, said);
    if (field) t.equal(r.body.error.field, field, `the field named: ${field}`);
  }
  t.same((await state()).data, [], 'nothing recorded by a refusal');

  const asked = await ask({ plan: 'pro', period: 30, note: 'letters in our own hands' });
  t.equal(asked.status, 201);
  t.match(asked.body, { plan: 'pro', periodDays: 30, status: 'pending', fromPlan: 'none' });
  const again = await ask({ plan: 'premium' });
  t.equal(again.status, 400, 'one pending request at a time');
  t.match(again.body.error.message, /a request for plan pro .* is pending: withdraw it first/);

  const pending = await call(t, server, 'GET', A('/plan-requests?status=pending'), { headers: admin });
  t.equal(pending.status, 200);
  t.ok(
    pending.body.data.some(
      (r: { id: string; note: string }) => r.id === asked.body.id && r.note === 'letters in our own hands',
    ),
    'the operator sees it pending, with its note',
  );
  const mine = await call(t, server, 'GET', A(`/plan-requests?account=${s.account}`), { headers: admin });
  t.same(
    mine.body.data.map((r: { id: string }) => r.id),
    [asked.body.id],
    "one account's requests",
  );
  const badStatus = await call(t, server, 'GET', A('/plan-requests?status=open'), { headers: admin });
  t.equal(badStatus.status, 400);
  t.equal(badStatus.body.error.field, 'status');

  const noReason = await call(t, server, 'POST', A(`/plan-requests/${asked.body.id}/refuse`), {
    headers: admin,
    body: { reason: '  ' },
  });
  t.equal(noReason.status, 400, 'a refusal needs a reason');
  t.equal(noReason.body.error.field, 'reason');
  t.equal((await state()).data[0].status, 'pending', 'and changes nothing');
  const refused = await call(t, server, 'POST', A(`/plan-requests/${asked.body.id}/refuse`), {
    headers: admin,
    body: { reason: 'Pro is sold by the year here: write to sales' },
  });
  t.equal(refused.status, 200);
  t.match(refused.body.request, {
    status: 'refused',
    decisionNote: 'Pro is sold by the year here: write to sales',
  });
  t.notOk(refused.body.account, 'a refusal changes no plan');
  const seen = await state();
  t.match(
    seen.data[0],
    { status: 'refused', decisionNote: 'Pro is sold by the year here: write to sales' },
    'the account sees why',
  );
  t.equal(seen.plan.id, 'none');
  const twice = await call(t, server, 'POST', A(`/plan-requests/${asked.body.id}/approve`), {
    headers: admin,
    body: {},
  });
  t.equal(twice.status, 400, 'a request decided once is not decided again');
  t.match(twice.body.error.message, /is refused already, not pending/);

  const withdrawn = await ask({ plan: 'premium', period: 7 });
  t.equal(withdrawn.status, 201, 'asked again after the refusal');
  const back = await dashboardCall(server, s, 'POST', `/plan-requests/${withdrawn.body.id}/withdraw`);
  t.equal(back.status, 200);
  t.equal(back.body.status, 'withdrawn', 'withdrawn by the owner');

  const third = await ask({ plan: 'pro', period: 30 });
  const approved = await call(t, server, 'POST', A(`/plan-requests/${third.body.id}/approve`), {
    headers: admin,
    body: { note: 'welcome' },
  });
  t.equal(approved.status, 200);
  t.match(approved.body, {
    request: { status: 'approved', decisionNote: 'welcome' },
    account: { plan: 'pro', periodDays: 30 },
  });
  const now = await state();
  t.match(now.plan, { id: 'pro', personalFonts: true }, 'the account has the plan at once');
  t.same(
    now.data.map((r: { status: string }) => r.status),
    ['approved', 'withdrawn', 'refused'],
    'every request kept, newest first',
  );
  const missing = await call(t, server, 'POST', A('/plan-requests/preq_0000000000000000000000/approve'), {
    headers: admin,
    body: {},
  });
  t.equal(missing.status, 404);
});

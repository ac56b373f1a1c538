// Billing rules, exhaustively tabled (spec §4 billing rules, DESIGN §6).
import t from 'tap';
import {
  type AllowanceState,
  checkBeforeWork,
  currentPeriod,
  decideCharge,
  planGrantMilli,
} from '../../src/domain/billing.ts';
import {
  billingTier,
  isAllowedSize,
  milliSheetsPerPage,
  type PageSize,
  sheets,
} from '../../src/domain/page-size.ts';
import {
  DEFAULT_PLANS,
  PACK_MAX_SHEETS,
  PACK_MIN_SHEETS,
  type PlanId,
  planCatalog,
  planPeriods,
} from '../../src/domain/plans.ts';

t.test('sheets per page for every standard size and custom sizes on each side of each edge', async (t) => {
  const table: [PageSize, number | null][] = [
    ['A5', 1000],
    ['A4', 1500],
    ['A3', 2000],
    ['Letter', 2000], // 215.9 mm is wider than A4 either way round: the smallest that holds it is A3
    // Envelopes bill by the same rule: the smallest of A5, A4, A3 that holds them.
    ['DL', 1500], // 110 x 220 mm: 220 is longer than A5's 210
    ['C5', 1500], // 162 x 229 mm
    ['C6', 1000], // 114 x 162 mm fits A5
    ['US10', 1500], // 104.8 x 241.3 mm
    [{ name: 'A5 landscape', width: 210, height: 148, unit: 'mm' }, 1000],
    [{ name: 'A6', width: 105, height: 148, unit: 'mm' }, 1000],
    [{ name: 'just over A5', width: 148.001, height: 210, unit: 'mm' }, 1500],
    [{ name: 'A4 landscape', width: 297, height: 210, unit: 'mm' }, 1500],
    [{ name: 'just over A4', width: 210, height: 297.001, unit: 'mm' }, 2000],
    [{ name: 'A3 landscape', width: 420, height: 297, unit: 'mm' }, 2000],
    [{ name: 'over A3', width: 297.001, height: 420, unit: 'mm' }, null],
    [{ name: 'long strip', width: 100, height: 421, unit: 'mm' }, null],
    [{ name: 'square', width: 210, height: 210, unit: 'mm' }, 1500],
    [{ name: 'square A3', width: 297, height: 297, unit: 'mm' }, 2000],
    [{ name: 'A5 px', width: 559, height: 793, unit: 'px' }, 1000], // 147.9 x 209.8 mm
    [{ name: 'card px', width: 559, height: 794, unit: 'px' }, 1500], // 794 px = 210.08 mm: over A5
    [{ name: 'A4 px', width: 793, height: 1122, unit: 'px' }, 1500],
    [{ name: 'A3 px', width: 1122, height: 1587, unit: 'px' }, 2000],
    [{ name: 'over A3 px', width: 1123, height: 1587, unit: 'px' }, null],
  ];
  for (const [size, milli] of table) {
    const label = typeof size === 'string' ? size : size.name;
    t.equal(
      billingTier(size)?.milliSheets ?? null,
      milli,
      `${label} bills ${milli === null ? 'nothing (invalid)' : sheets(milli)}`,
    );
    t.equal(isAllowedSize(size), milli !== null, `${label} ${milli === null ? 'refused' : 'allowed'}`);
    if (milli === null) t.throws(() => milliSheetsPerPage(size), RangeError);
    else t.equal(milliSheetsPerPage(size), milli);
  }
  t.equal(isAllowedSize({ name: 'zero', width: 0, height: 10, unit: 'mm' }), false, 'a zero side is refused');
});

t.test('the plan catalogue', async (t) => {
  const expected: Record<PlanId, [number[], boolean, boolean]> = {
    none: [[], false, false],
    week: [[7], false, true],
    basic: [[7, 30], false, false],
    pro: [[7, 30], true, true],
    premium: [[7, 30], true, true],
  };
  for (const [id, [periods, premium, render]] of Object.entries(expected)) {
    const plan = DEFAULT_PLANS[id as PlanId];
    t.same(planPeriods(plan), periods, `${id} periods`);
    t.equal(plan.premiumFonts, premium, `${id} premium fonts`);
    t.equal(plan.renderAccess, render, `${id} render access`);
    t.ok(plan.pagesPerDay >= 200, `${id} allows one whole 200-page document a day`);
    for (const p of periods)
      t.ok((plan.sheetsPerPeriod[`${p}` as '7'] ?? 0) > 0, `${id} grants sheets per ${p} days`);
  }
  t.ok(
    DEFAULT_PLANS.premium.sheetsPerPeriod[30]! > DEFAULT_PLANS.pro.sheetsPerPeriod[30]!,
    'premium grants more than pro',
  );
  t.ok(
    DEFAULT_PLANS.pro.sheetsPerPeriod[30]! > DEFAULT_PLANS.basic.sheetsPerPeriod[30]!,
    'pro grants more than basic',
  );
  t.equal(PACK_MIN_SHEETS, 50);
  t.equal(PACK_MAX_SHEETS, 1000);
  const custom = planCatalog('{"basic":{"renderAccess":true,"sheetsPerPeriod":{"30":500}}}');
  t.equal(custom.basic.renderAccess, true);
  t.same(custom.basic.sheetsPerPeriod, { 7: 75, 30: 500 }, 'overrides merge over defaults');
  t.equal(custom.pro, DEFAULT_PLANS.pro);
  t.throws(() => planCatalog('not json'), /must be a JSON object/);
  t.throws(
    () => planCatalog('{"basic":{"pagesPerDay":-1}}'),
    /basic.pagesPerDay must be a whole number 1-1000000 pages, got -1/,
  );
});

const state = (over: Partial<AllowanceState> = {}): AllowanceState => ({
  plan: DEFAULT_PLANS.pro,
  periodDays: 30,
  mode: 'live',
  planUsedMilli: 0,
  extraMilli: 0,
  pagesToday: 0,
  ...over,
});

t.test('plan grants: live only', async (t) => {
  t.equal(planGrantMilli(DEFAULT_PLANS.pro, 30, 'live'), 1_000_000);
  t.equal(planGrantMilli(DEFAULT_PLANS.pro, 7, 'live'), 250_000);
  t.equal(planGrantMilli(DEFAULT_PLANS.pro, 30, 'test'), 0, 'test keys spend test top-ups only');
  t.equal(planGrantMilli(DEFAULT_PLANS.none, null, 'live'), 0);
});

t.test('spend order and all-or-nothing, as a table', async (t) => {
  // [planUsed, extra, pages, perPage] → [planPart, extraPart] or refusal
  const rows: [number, number, number, number, [number, number] | 'balance'][] = [
    [0, 0, 10, 1500, [15_000, 0]],
    [990_000, 0, 10, 1500, 'balance'],
    [990_000, 5_000, 10, 1500, [10_000, 5_000]],
    [990_000, 4_999, 10, 1500, 'balance'],
    [1_000_000, 15_000, 10, 1500, [0, 15_000]],
    [1_000_000, 14_999, 10, 1500, 'balance'],
    [1_200_000, 2_000, 1, 2000, [0, 2_000]], // overspent plan counts as zero left, never negative
    [0, 0, 0, 1500, [0, 0]],
  ];
  for (const [planUsedMilli, extraMilli, pages, perPage, want] of rows) {
    const d = decideCharge(state({ planUsedMilli, extraMilli }), pages, perPage);
    const label = `used ${planUsedMilli}, extra ${extraMilli}, ${pages} x ${perPage}`;
    if (want === 'balance') t.match(d, { ok: false, reason: 'balance' }, label);
    else
      t.match(d, { ok: true, planMilli: want[0], extraMilli: want[1], totalMilli: want[0] + want[1] }, label);
  }
  t.throws(() => decideCharge(state(), -1, 1500), RangeError);
  t.throws(() => decideCharge(state(), 1.5, 1500), RangeError);
});

t.test('pages per UTC day', async (t) => {
  t.match(decideCharge(state({ extraMilli: 10_000_000, pagesToday: 800 }), 200, 1000), { ok: true });
  t.match(decideCharge(state({ extraMilli: 10_000_000, pagesToday: 801 }), 200, 1000), {
    ok: false,
    reason: 'daily_pages',
  });
  t.match(checkBeforeWork(state({ extraMilli: 1, pagesToday: 999 })), { ok: true });
  t.match(checkBeforeWork(state({ extraMilli: 1, pagesToday: 1000 })), { ok: false, reason: 'daily_pages' });
  t.match(checkBeforeWork(state({ planUsedMilli: 1_000_000 })), { ok: false, reason: 'balance' });
  t.match(
    checkBeforeWork(state({ planUsedMilli: 999_999 })),
    { ok: true },
    'one milli-sheet is some allowance',
  );
});

t.test('plan periods count whole periods from the anchor', async (t) => {
  const anchor = '2026-01-31T10:00:00.000Z';
  t.same(currentPeriod(anchor, 30, new Date('2026-01-31T10:00:00.000Z')), {
    start: anchor,
    end: '2026-03-02T10:00:00.000Z',
  });
  t.same(currentPeriod(anchor, 30, new Date('2026-03-02T10:00:00.000Z')).start, '2026-03-02T10:00:00.000Z');
  t.same(currentPeriod(anchor, 7, new Date('2026-02-14T09:59:59.999Z')).start, '2026-02-07T10:00:00.000Z');
  t.same(
    currentPeriod(anchor, 7, new Date('2026-01-01T00:00:00.000Z')).start,
    anchor,
    'before the anchor: the first period',
  );
});

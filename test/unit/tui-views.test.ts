// The console's screens rendered to strings and compared, frame by frame, with the stored frames
// in test/goldens/tui (GOLDENS_UPDATE=1 rewrites them after a deliberate change): each view on
// its own at 80 columns, and whole screens at 80 x 24 and at 120 x 40.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { renderToString } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import t, { type Test } from 'tap';
import type { Snapshot } from '../../src/metrics/index.ts';
import { refusalOf } from '../../tui/client.ts';
import { cell, dateTime, span, sparkline, uptime, wrapWords } from '../../tui/format.ts';
import {
  Accounts,
  type AccountRow,
  Dashboard,
  Footer,
  Header,
  Help,
  JobDetail,
  type JobRow,
  Jobs,
  jobMatches,
  Keys,
  type PlanRequestRow,
  Requests,
  Screen,
  type Size,
  sizeOf,
  windowOf,
} from '../../tui/views.tsx';

const DIR = new URL('../goldens/tui/', import.meta.url);
const update = process.env.GOLDENS_UPDATE === '1';
if (update) mkdirSync(DIR, { recursive: true });

/** Renders `el` at `size.columns` and compares it with its stored frame; `whole`: the frame is a full screen. */
function frame(
  t: Test,
  name: string,
  el: ReactElement,
  size: Size = { columns: 80, rows: 24 },
  whole = false,
): string {
  const text = stripVTControlCharacters(renderToString(el, { columns: size.columns }));
  const lines = text.split('\n');
  const widest = Math.max(...lines.map((l) => [...l].length));
  t.ok(widest <= size.columns, `${name}: no line wider than ${size.columns} (widest ${widest})`);
  if (whole) t.equal(lines.length, size.rows, `${name}: the screen is ${size.rows} lines`);
  else
    t.ok(
      lines.length <= size.rows - 2,
      `${name}: ${lines.length} lines leave room for the header and footer`,
    );
  const file = new URL(`${name}.txt`, DIR);
  if (update) writeFileSync(file, `${text}\n`);
  t.equal(`${text}\n`, readFileSync(file, 'utf8'), `${name}: the frame as stored`);
  return text;
}

const AT = Date.UTC(2026, 10, 22, 12, 0, 0);
function snap(i: number, over: Partial<Snapshot> = {}): Snapshot {
  return {
    at: new Date(AT + i * 1000).toISOString(),
    mode: 'farm',
    instances: [
      {
        instance: 'node-a:4101:1f2e3d',
        role: 'api',
        startedAt: new Date(AT - 3_600_000).toISOString(),
        uptimeSeconds: 3600 + i,
        pool: { threads: 2, busy: 0 },
      },
      {
        instance: 'node-b:4102:4c5b6a',
        role: 'worker',
        startedAt: new Date(AT - 90_000).toISOString(),
        uptimeSeconds: 90 + i,
        pool: { threads: 2, busy: i % 3 },
      },
    ],
    queue: {
      waiting: i % 5,
      active: i % 3,
      delayed: (i % 2) * 3,
      retrying: i % 4 === 1 ? 1 : 0,
      completedToday: 1200 + i * 3,
      failedToday: 4,
    },
    pool: { threads: 4, busy: i % 3 },
    perMinute: {
      renders: 40 + i * 4,
      generations: 10 + i,
      previews: 2,
      pages: 60 + i * 9,
      rejected: i > 20 ? 3 : 0,
    },
    renderLatencyMs: { p50: 8 + (i % 4), p99: 40 + i, count: 40 + i * 4 },
    errors: i > 20 ? { RATE_LIMIT_EXCEEDED: 3, INVALID_REQUEST: 1 } : {},
    ...over,
  };
}

t.test('dashboard, frame by frame as the figures arrive', async (t) => {
  frame(t, 'dashboard-0-waiting', h(Dashboard, { snapshot: null, history: [] }));
  const history: Snapshot[] = [];
  const frames: string[] = [];
  for (const i of [0, 1, 29]) {
    while (history.length <= i) history.push(snap(history.length));
    frames.push(
      frame(
        t,
        `dashboard-${i + 1}`,
        h(Dashboard, { snapshot: history[history.length - 1]!, history: [...history] }),
      ),
    );
  }
  t.not(frames[0], frames[1], 'each new snapshot changes the frame');
  t.match(frames[0]!, /^Delayed none$/m);
  t.match(
    frames[1]!,
    /^Delayed 1 waiting to retry after a fault · 2 behind their account's job$/m,
    'why the delayed jobs wait',
  );
  t.match(frames[2]!, /renders\s+156\s+[▁-█]{30}/, 'thirty bars of renders after thirty snapshots');
  t.match(frames[2]!, /Errors, last minute RATE_LIMIT_EXCEEDED 3 · INVALID_REQUEST 1/);
  const many = snap(3, {
    instances: Array.from({ length: 7 }, (_, n) => ({
      instance: `node-${n}:1:aaaaaa`,
      role: n < 2 ? 'api' : 'worker',
      startedAt: '',
      uptimeSeconds: 200_000,
      pool: { threads: 2, busy: 1 },
    })),
  });
  frame(t, 'dashboard-seven-instances', h(Dashboard, { snapshot: many, history: [many] }));
});

const balance = (available: number, used = 0, granted = 0) =>
  ({
    availableSheets: available,
    subscription: { sheetsUsed: used, sheetsPerPeriod: granted },
  }) as AccountRow['balances']['live'];
const usage = (pages: number, requests: number) => ({ pages, requests }) as AccountRow['usageToday']['live'];
const accounts: AccountRow[] = [
  'Atelier Nord',
  'Bureau des lettres et des cartes postales',
  'Calligraphy Co',
].map((name, n) => ({
  account: {
    id: `acc_${n}`,
    name,
    plan: n === 1 ? 'none' : 'pro',
    periodDays: null,
    planAnchor: null,
    createdAt: '2026-11-01T00:00:00.000Z',
  } as AccountRow['account'],
  balances: {
    live: balance(1000 + n * 250, n === 1 ? 0 : 120 * (n + 1), n === 1 ? 0 : 1000),
    // The widest figures a column takes (the test sheets of the second: 12,261.5) beside each other.
    test: balance(n === 1 ? 12_261.5 : 20 - n),
  },
  usageToday: { live: usage(12 * n, 300 + n), test: usage(n, 4) },
}));

const keys = [
  {
    id: 'key_7Tn3kW9qLm2Vx8Rb4Hc6Jd1',
    accountId: 'acc_0',
    mode: 'live',
    name: 'production',
    displayPrefix: 'hw_live_Ab12Cd34',
    createdAt: '2026-11-02T09:00:00.000Z',
    revokedAt: null,
    lastUsedAt: '2026-11-22T11:58:41.512Z',
  },
  {
    id: 'key_2Pz5sY7uNe4Qa9Wf3Kg8Mt0',
    accountId: 'acc_0',
    mode: 'test',
    name: '',
    displayPrefix: 'hw_test_Ef56Gh78',
    createdAt: '2026-11-03T09:00:00.000Z',
    revokedAt: '2026-11-04T00:00:00.000Z',
    lastUsedAt: null,
  },
] as const;

const at = (ms: number) => new Date(AT + ms).toISOString();
const FAILURE = {
  code: 'GENERATION_FAILED',
  message:
    'page 3 of 12 could not be drawn: image img_Zq81 is damaged (its bytes no longer match the SHA-256 recorded at upload); upload it again',
};
const jobs: JobRow[] = Array.from({ length: 20 }, (_, n) => {
  const status = ['queued', 'processing', 'completed', 'failed', 'cancelled'][n % 5]!;
  const created = n * 61_000;
  return {
    id: `gen_${String(n).padStart(22, 'x')}`,
    accountId: `acc_${n % 3}`,
    mode: n % 4 === 0 ? 'test' : 'live',
    kind: n % 5 === 0 ? 'preview' : 'pdf',
    status,
    templateId: 'tpl_4Hn2pQ8sVw3xYz5Ab7Cd9E',
    ...(status === 'completed' ? { pages: n * 3 } : {}),
    attempt: status === 'failed' || n === 5 ? 2 : 1,
    // Job 5 waits out a retry's back-off; job 10 waits behind its account's running job.
    ...(n === 5 ? { wait: { reason: 'retry', until: at(created + 42_000), faults: 1 } } : {}),
    ...(n === 10 ? { wait: { reason: 'account', faults: 0 } } : {}),
    createdAt: at(created),
    ...(status === 'queued' ? {} : { startedAt: at(created + 1_250) }),
    ...(status === 'completed' ? { completedAt: at(created + 1_250 + n * 400) } : {}),
    ...(status === 'failed' ? { failedAt: at(created + 1_250 + 75_500), error: FAILURE } : {}),
    ...(status === 'cancelled' ? { cancelledAt: at(created + 3_000) } : {}),
    requestId: `req_${String(n).padStart(22, 'r')}`,
    metadata: (n % 2 ? { order: `A-${1000 + n}`, customer: 'north' } : {}) as Record<string, string>,
  };
});
const names = Object.fromEntries(accounts.map((a) => [a.account.id, a.account.name]));

t.test('accounts, keys and jobs lists with their selection', async (t) => {
  const first = frame(t, 'accounts-0', h(Accounts, { accounts, selected: 0 }));
  const second = frame(t, 'accounts-1', h(Accounts, { accounts, selected: 1 }));
  t.match(
    second,
    /› Bureau des lett… none\s+–/,
    'the selection moves, long names cut, no plan grant shown as –',
  );
  t.match(first, /› Atelier Nord\s+pro\s+120\/1,000/, 'plan sheets used of those granted');
  t.match(second, / 1,250 12,261\.5 /, 'the widest live and test figures do not run together');
  t.not(first, second);
  frame(t, 'accounts-empty', h(Accounts, { accounts: [], selected: 0 }));
  const used = frame(t, 'keys', h(Keys, { account: accounts[0]!, keys: [...keys], selected: 0 }));
  t.match(used, /› hw_live_Ab12Cd34\s+live\s+production\s+2026-11-02\s+2026-11-22 11:58\s+active/);
  t.match(
    used,
    /^key_7Tn3kW9qLm2Vx8Rb4Hc6Jd1 · hw_live_Ab12Cd34… · production$/m,
    'the selected key id in full',
  );
  t.match(used, /last used 2026-11-22 11:58:41/);
  const revoked = frame(t, 'keys-revoked', h(Keys, { account: accounts[0]!, keys: [...keys], selected: 1 }));
  t.match(revoked, /› hw_test_Ef56Gh78\s+test\s+2026-11-03\s+never\s+revoked/);
  t.match(revoked, /last used never · revoked 2026-11-04 00:00:00/);

  const all = frame(t, 'jobs-all', h(Jobs, { jobs, selected: 3, filter: 'all', names }));
  t.match(
    all,
    /› gen_xxxxxxxxxx… Atelier Nord\s+pdf\s+failed\s+↻2\s+1m15s 12:03:03/,
    'a failed job: its tries, marked, and how long it ran',
  );
  t.match(all, /gen_xxxxxxxxxx… Calligraphy… preview\s+retry 1\s+↻2 /, 'a job waiting for its retry says so');
  const behind = frame(t, 'jobs-held', h(Jobs, { jobs, selected: 10, filter: 'all', names }));
  t.match(
    behind,
    /› gen_xxxxxxxxxx… Bureau des … preview\s+held\s+1 /,
    "a job behind its account's job says so",
  );
  const waiting = frame(t, 'jobs-retry', h(Jobs, { jobs, selected: 5, filter: 'all', names }));
  t.match(
    waiting,
    /^delayed until 12:05:47 UTC for retry 1: 1 run in a row failed on a fault/m,
    'the selected waiting job: until when, and for which retry',
  );
  const held = frame(t, 'job-detail-held', h(JobDetail, { job: jobs[10]!, names }));
  t.match(held, /Waits\s+held: its account has a job rendering \(one at a time\)/);
  t.match(all, /gen_xxxxxxxxxx… Calligraphy… pdf\s+completed\s+6\s+1\s+800 ms/, 'pages and duration');
  t.match(
    all,
    /^gen_xxxxxxxxxxxxxxxxxxxxx3 · Atelier Nord acc_0 · Enter: details$/m,
    'the selected job id in full',
  );
  t.match(all, /^GENERATION_FAILED: page 3 of 12 could not be drawn: .*…$/m, 'its failure, cut at the edge');
  const scrolled = frame(t, 'jobs-scrolled', h(Jobs, { jobs, selected: 19, filter: 'all', names }));
  t.match(
    scrolled,
    /› gen_xxxxxxxxxx… Bureau des … pdf\s+cancelled/,
    'the list scrolls to keep the selection in view',
  );
  t.match(scrolled, /^gen_xxxxxxxxxxxxxxxxxxxx19 · /m);
  frame(t, 'jobs-filtered-empty', h(Jobs, { jobs: [], selected: 0, filter: 'failed', names }));
  frame(t, 'jobs-query-empty', h(Jobs, { jobs: [], selected: 0, filter: 'all', query: 'A-1099', names }));
  const detail = frame(t, 'job-detail-failed', h(JobDetail, { job: jobs[3]!, names }));
  t.match(detail, /Attempts\s+2, started again after a run that did not finish/);
  const retrying = frame(t, 'job-detail-retry', h(JobDetail, { job: jobs[5]!, names }));
  t.match(
    retrying,
    /Waits\s+delayed until 12:05:47 UTC for retry 1: 1 run in a row failed on\s+a fault of the service/,
  );
  t.match(detail, /Started\s+2026-11-22 12:03:04 UTC, after 1.2 s queued/);
  t.match(detail, /Failed\s+2026-11-22 12:04:19 UTC, took 1m15s/);
  t.match(detail, /Request\s+req_r+3/);
  t.match(detail, /Metadata\s+order=A-1003 · customer=north/);
  t.match(detail, /GENERATION_FAILED\n\s+page 3 of 12 could not be drawn/, 'the code, then the message');
  t.match(detail, /upload it\s+again/, 'the whole message, wrapped');
  const done = frame(t, 'job-detail-completed', h(JobDetail, { job: jobs[2]!, names }));
  t.match(done, /Finished\s+2026-11-22 12:02:04 UTC, took 800 ms/);
  t.notMatch(done, /Failure/);
});

const requests: PlanRequestRow[] = [
  {
    id: 'preq_7Hn2pQ8sVw3xYz5Ab7Cd9E',
    accountId: 'acc_1',
    plan: 'pro',
    periodDays: 30,
    note: 'We want to write letters in our own hands',
    status: 'pending',
    fromPlan: 'none',
    decisionNote: null,
    decidedAt: null,
    createdAt: at(3_600_000),
  },
  {
    id: 'preq_2Kd9LmQ4rT6vW8xY1zA3bC',
    accountId: 'acc_2',
    plan: 'premium',
    periodDays: 7,
    note: '',
    status: 'refused',
    fromPlan: 'basic',
    decisionNote: 'Premium is by contract only: write to sales',
    decidedAt: at(7_200_000),
    createdAt: at(1_800_000),
  },
];

t.test("plan requests: each account's ask, and the selected one in full", async (t) => {
  const pending = frame(
    t,
    'requests-pending',
    h(Requests, { requests, selected: 0, filter: 'pending', names }),
  );
  t.match(
    pending,
    /› Bureau des lettres…\s+none\s+pro 30 d\s+pending\s+2026-11-22 13:00/,
    'who asks for what, from which plan',
  );
  t.match(pending, /^preq_7Hn2pQ8sVw3xYz5Ab7Cd9E · Bureau des /m, 'its id');
  t.match(pending, /^note: We want to write letters in our own hands$/m, 'and the note that came with it');
  const refused = frame(t, 'requests-refused', h(Requests, { requests, selected: 1, filter: 'all', names }));
  t.match(
    refused,
    /^refused 2026-11-22 14:00: Premium is by contract only: write to sales/m,
    'a refusal and its reason',
  );
  frame(t, 'requests-empty', h(Requests, { requests: [], selected: 0, filter: 'pending', names }));
});

t.test('the / filter: every word, any case, over ids, account, status, failure and metadata', async (t) => {
  const matching = (q: string) => jobs.filter((j) => jobMatches(j, q, names)).map((j) => j.id.slice(-2));
  t.same(matching('failed atelier'), ['x3', '18'], 'status and account name, both');
  t.same(matching('FAILED Atelier'), ['x3', '18'], 'in any case');
  t.same(matching('damaged'), ['x3', 'x8', '13', '18'], 'words of the failure message');
  t.same(matching('a-1013'), ['13'], 'a metadata value');
  t.same(matching('gen_xxxxxxxxxxxxxxxxxxxx17'), ['17'], 'a job id');
  t.same(matching('req_rrrrrrrrrrrrrrrrrrrrr5'), ['x5'], 'a request id');
  t.same(matching('preview test'), ['x0'], 'kind and mode');
  t.same(matching('nothing-like-this'), []);
});

t.test('whole screens at 80 x 24 and 120 x 40', async (t) => {
  const history: Snapshot[] = Array.from({ length: 30 }, (_, i) => snap(i));
  const views: [string, (size: Size) => ReactElement][] = [
    ['dashboard', (size) => h(Dashboard, { snapshot: history[29]!, history, size })],
    ['accounts', (size) => h(Accounts, { accounts, selected: 1, size })],
    ['keys', (size) => h(Keys, { account: accounts[0]!, keys: [...keys], selected: 0, size })],
    ['jobs', (size) => h(Jobs, { jobs, selected: 3, filter: 'all', query: '', names, size })],
    ['job', (size) => h(JobDetail, { job: jobs[3]!, names, size })],
    ['requests', (size) => h(Requests, { requests, selected: 0, filter: 'pending', names, size })],
    ['help', () => h(Help)],
  ];
  for (const size of [
    { columns: 80, rows: 24 },
    { columns: 120, rows: 40 },
  ]) {
    for (const [name, view] of views) {
      const text = frame(
        t,
        `screen-${size.columns}x${size.rows}-${name}`,
        h(
          Screen,
          {
            size,
            header: h(Header, {
              url: 'http://127.0.0.1:8080',
              view:
                name === 'dashboard' ? 'dashboard' : name === 'jobs' || name === 'job' ? 'jobs' : 'accounts',
              live: { status: 'live', reconnected: false },
              mode: 'farm',
              size,
            }),
            footer: h(Footer, {
              message: {
                text: 'Revoked key_7Tn3kW9qLm2Vx8Rb4Hc6Jd1: requests with it are refused from now on, by every process of the farm at once, and by the live console',
                error: false,
              },
              size,
            }),
          },
          view(size),
        ),
        size,
        true,
      );
      const last = text.split('\n').at(-1)!;
      t.ok(
        last.startsWith('Revoked key_') && last.endsWith('…'),
        `${name}: the status line is cut with an ellipsis`,
      );
      if (size.columns === 120 && name === 'jobs') {
        t.match(
          text,
          /gen_xxxxxxxxxxxxxxxxxxxxx3 Atelier Nord .*GENERATION_FAILED/,
          'wide: whole ids and the failure code',
        );
        t.match(text, /gen_xxxxxxxxxxxxxxxxxxxx19/, 'wide: all twenty jobs fit');
      }
      if (size.columns === 120 && name === 'dashboard')
        t.match(text, /renders\s+156\s+ {50}[▁-█]{30}/, 'wide: 80 seconds of bars, thirty of them filled');
    }
  }
});

t.test('header states, help and the footer', async (t) => {
  frame(
    t,
    'header-live',
    h(Header, {
      url: 'http://127.0.0.1:8080',
      view: 'dashboard',
      live: { status: 'live', reconnected: false },
      mode: 'farm',
    }),
  );
  frame(
    t,
    'header-reconnecting',
    h(Header, {
      url: 'http://127.0.0.1:8080',
      view: 'jobs',
      live: { status: 'reconnecting', attempts: 3, wasLive: true },
    }),
  );
  frame(
    t,
    'header-reconnected',
    h(Header, {
      url: 'http://127.0.0.1:8080',
      view: 'accounts',
      live: { status: 'live', reconnected: true },
      mode: 'embedded',
    }),
  );
  frame(
    t,
    'header-refused',
    h(Header, {
      url: 'http://scriptorium.internal.example.com:8080',
      view: 'dashboard',
      live: { status: 'refused', message: 'the admin token is wrong' },
    }),
  );
  frame(t, 'help', h(Help));
  frame(
    t,
    'footer-prompt',
    h(Footer, { prompt: 'Top up Atelier Nord, live (Tab: test), sheets 50-1000:', input: '200' }),
  );
  frame(
    t,
    'footer-message',
    h(Footer, { message: { text: 'Added 200 live sheets to Atelier Nord: 1,200 available', error: false } }),
  );
});

t.test('helpers', async (t) => {
  t.equal(sparkline([0, 0, 0], 5), '  ▁▁▁');
  t.equal(sparkline([0, 4, 8], 3), '▁▅█');
  t.equal(cell('Calligraphy Co', 14), 'Calligraphy … ', 'a left cell keeps a blank at its end');
  t.equal(cell('42', 5, 'right'), '   42');
  t.equal(cell('1,261.5', 8, 'right'), ' 1,261.5', 'a right cell keeps a blank at its start');
  t.equal(cell('1,261.5', 7, 'right'), ' 1,261…', 'and is cut rather than touch the cell before');
  t.equal(
    sparkline(
      Array.from({ length: 50 }, (_, i) => i),
      10,
    ).length,
    10,
    'the newest values, as wide as asked',
  );
  t.same([uptime(59), uptime(61), uptime(3725), uptime(200_000)], ['59s', '1m01s', '1h02m', '2d07h']);
  t.same(windowOf([1, 2, 3, 4, 5], 4, 3), { start: 2, shown: [3, 4, 5] });
  t.same(windowOf([1, 2], 0, 3), { start: 0, shown: [1, 2] });
  t.same([span(850), span(12_345), span(245_000)], ['850 ms', '12.3 s', '4m05s']);
  t.equal(dateTime('2026-11-22T12:03:04.000Z'), '2026-11-22 12:03');
  t.equal(dateTime('2026-11-22T12:03:04.000Z', true), '2026-11-22 12:03:04');
  t.same(wrapWords('one two three four', 9), ['one two', 'three', 'four']);
  t.same(wrapWords('one two three four five six', 9, 2), ['one two', 'three fo…'], 'at most two lines');
  t.same(wrapWords('abcdefghijkl', 5), ['abcde'], 'a word longer than a line is cut');
  t.same(sizeOf(200, 50), { columns: 200, rows: 50 });
  t.same(sizeOf(60, 20), { columns: 80, rows: 24 }, 'never smaller than 80 x 24');
  t.same(sizeOf(undefined, undefined), { columns: 80, rows: 24 });
});

t.test('a refused live socket says why, and waits before trying again', async (t) => {
  t.same(refusalOf(401), { message: 'the admin token is wrong', waitMs: 15_000 });
  t.same(refusalOf(429, '42'), {
    message: 'too many wrong tokens from this address; shut out for 42 s',
    waitMs: 42_000,
  });
  t.equal(refusalOf(404).message, 'the server has no ADMIN_TOKEN, its admin API is off');
  t.equal(refusalOf(502).message, 'HTTP 502');
});

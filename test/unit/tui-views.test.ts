// The console's screens rendered to strings at 80 columns and compared, frame by frame, with the
// stored frames in test/goldens/tui (GOLDENS_UPDATE=1 rewrites them after a deliberate change).
// Every frame fits 80 x 24.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { renderToString } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import t, { type Test } from 'tap';
import type { Snapshot } from '../../src/metrics/index.ts';
import { cell, sparkline, uptime } from '../../tui/format.ts';
import {
  Accounts,
  type AccountRow,
  Dashboard,
  Footer,
  Header,
  Help,
  type JobRow,
  Jobs,
  Keys,
  windowOf,
} from '../../tui/views.tsx';

const DIR = new URL('../goldens/tui/', import.meta.url);
const update = process.env.GOLDENS_UPDATE === '1';
if (update) mkdirSync(DIR, { recursive: true });

function frame(t: Test, name: string, el: ReactElement): string {
  const text = stripVTControlCharacters(renderToString(el, { columns: 80 }));
  const lines = text.split('\n');
  t.ok(
    lines.every((l) => [...l].length <= 80),
    `${name}: no line wider than 80 (widest ${Math.max(...lines.map((l) => [...l].length))})`,
  );
  t.ok(lines.length <= 22, `${name}: ${lines.length} lines leave room for the header and footer in 24`);
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
    queue: { waiting: i % 5, active: i % 3, delayed: i % 2, completedToday: 1200 + i * 3, failedToday: 4 },
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
    test: balance(20 - n),
  },
  usageToday: { live: usage(12 * n, 300 + n), test: usage(n, 4) },
}));

t.test('accounts, keys and jobs lists with their selection', async (t) => {
  const first = frame(t, 'accounts-0', h(Accounts, { accounts, selected: 0 }));
  const second = frame(t, 'accounts-1', h(Accounts, { accounts, selected: 1 }));
  t.match(
    second,
    /› Bureau des lettre… none\s+–/,
    'the selection moves, long names cut, no plan grant shown as –',
  );
  t.match(first, /› Atelier Nord\s+pro\s+120\/1,000/, 'plan sheets used of those granted');
  t.not(first, second);
  frame(t, 'accounts-empty', h(Accounts, { accounts: [], selected: 0 }));
  const keys = [
    {
      id: 'key_1',
      accountId: 'acc_0',
      mode: 'live',
      name: 'production',
      displayPrefix: 'hw_live_Ab12',
      createdAt: '2026-11-02T09:00:00.000Z',
      revokedAt: null,
      lastUsedAt: null,
    },
    {
      id: 'key_2',
      accountId: 'acc_0',
      mode: 'test',
      name: '',
      displayPrefix: 'hw_test_Cd34',
      createdAt: '2026-11-03T09:00:00.000Z',
      revokedAt: '2026-11-04T00:00:00.000Z',
      lastUsedAt: null,
    },
  ] as const;
  frame(t, 'keys', h(Keys, { account: accounts[0]!, keys: [...keys], selected: 1 }));
  const jobs: JobRow[] = Array.from({ length: 20 }, (_, n) => ({
    id: `gen_${String(n).padStart(22, 'x')}`,
    accountId: `acc_${n % 3}`,
    mode: n % 4 === 0 ? 'test' : 'live',
    kind: n % 5 === 0 ? 'preview' : 'pdf',
    status: ['queued', 'processing', 'completed', 'failed', 'cancelled'][n % 5]!,
    ...(n % 5 === 2 ? { pages: n * 3 } : {}),
    attempt: 1,
    createdAt: new Date(AT + n * 61_000).toISOString(),
  }));
  const names = Object.fromEntries(accounts.map((a) => [a.account.id, a.account.name]));
  frame(t, 'jobs-all', h(Jobs, { jobs, selected: 0, filter: 'all', names }));
  const scrolled = frame(t, 'jobs-scrolled', h(Jobs, { jobs, selected: 19, filter: 'all', names }));
  t.match(scrolled, /› gen_xxxxxxxxxxxxxxxxxxxx19/, 'the list scrolls to keep the selection in view');
  frame(t, 'jobs-filtered-empty', h(Jobs, { jobs: [], selected: 0, filter: 'failed', names }));
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
});

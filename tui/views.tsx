// The console's screens as pure components: the same props always draw the same frame, so each
// can be rendered to a string at a fixed width and compared. Everything fits 80 x 24.
import { Box, Text } from 'ink';
import type { AccountSummary } from '../src/app/admin.ts';
import type { Snapshot } from '../src/metrics/index.ts';
import type { ApiKeyRecord } from '../src/store/accounts.ts';
import type { LiveState } from './client.ts';
import { cell, clock, count, niceCeiling, sparkline, uptime } from './format.ts';

export const VIEWS = ['dashboard', 'accounts', 'jobs'] as const;
export type View = (typeof VIEWS)[number];

/** An admin job as listed. */
export interface JobRow {
  id: string;
  accountId: string;
  mode: string;
  kind: string;
  status: string;
  pages?: number;
  attempt: number;
  createdAt: string;
  error?: { code: string; message: string };
}

/** JSON of an account summary (dates as strings, as they arrive). */
export type AccountRow = AccountSummary;

export function Header(props: { url: string; view: View; live: LiveState; mode?: string }) {
  const { live } = props;
  const state =
    live.status === 'live' ? (
      <Text color="green">● live{live.reconnected ? ' (reconnected)' : ''}</Text>
    ) : live.status === 'reconnecting' ? (
      <Text color="yellow">
        ○ {live.wasLive ? 'server gone' : 'no server'}, retrying ({live.attempts})
      </Text>
    ) : live.status === 'refused' ? (
      <Text color="red">✕ refused: {live.message}</Text>
    ) : (
      <Text color="yellow">○ connecting</Text>
    );
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text bold>
          Scriptorium <Text dimColor>{cell(props.url, 30)}</Text>
          {props.mode ? <Text dimColor> {props.mode}</Text> : null}
        </Text>
        {state}
      </Box>
      <Box>
        {VIEWS.map((v, i) => (
          <Text key={v} inverse={v === props.view}>
            {` ${i + 1} ${v[0]!.toUpperCase()}${v.slice(1)} `}
          </Text>
        ))}
        <Text dimColor> ? help q quit</Text>
      </Box>
    </Box>
  );
}

const SPARK = 40;

function Row(props: { label: string; value: string; history: number[]; axis: number; unit?: string }) {
  return (
    <Text>
      {cell(props.label, 14)}
      {cell(props.value, 10, 'right')}
      {'  '}
      <Text color="cyan">{sparkline(props.history, SPARK, props.axis)}</Text>
      <Text dimColor>{` ${cell(`${count(props.axis)}${props.unit ?? ''}`, 9, 'right')}`}</Text>
    </Text>
  );
}

const latency = (ms: number | null) => (ms === null ? '–' : `${count(ms)} ms`);

/** Throughput and queue figures; `history` holds the earlier snapshots, oldest first, newest last. */
export function Dashboard(props: { snapshot: Snapshot | null; history: Snapshot[] }) {
  const s = props.snapshot;
  if (!s) return <Text dimColor>Waiting for the first figures…</Text>;
  const h = props.history;
  const series = (f: (x: Snapshot) => number) => h.map(f);
  const roles: Record<string, number> = {};
  for (const i of s.instances) roles[i.role] = (roles[i.role] ?? 0) + 1;
  const errors = Object.entries(s.errors).sort((a, b) => b[1] - a[1]);
  const shownInstances = s.instances.slice(0, 4);
  // Rows of one unit share one axis: the counts per minute, and the two latencies.
  const renders = series((x) => x.perMinute.renders);
  const generations = series((x) => x.perMinute.generations);
  const pages = series((x) => x.perMinute.pages);
  const rejected = series((x) => x.perMinute.rejected);
  const p50 = series((x) => x.renderLatencyMs.p50 ?? 0);
  const p99 = series((x) => x.renderLatencyMs.p99 ?? 0);
  const top = (rows: number[][]) => niceCeiling(Math.max(0, ...rows.flatMap((r) => r.slice(-SPARK))));
  const perMinuteAxis = top([renders, generations, pages, rejected]);
  const latencyAxis = top([p50, p99]);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Queue </Text>
        waiting {s.queue.waiting} · active {s.queue.active} · delayed {s.queue.delayed} · completed today{' '}
        {count(s.queue.completedToday)} · failed today {count(s.queue.failedToday)}
      </Text>
      <Text>
        <Text bold>Pool </Text>
        {s.pool.busy}/{s.pool.threads} threads busy · {s.instances.length} instance
        {s.instances.length === 1 ? '' : 's'} (
        {Object.entries(roles)
          .map(([r, n]) => `${n} ${r}`)
          .join(', ')}
        )
      </Text>
      <Text
        dimColor
      >{`${cell('per minute', 14)}${cell('now', 10, 'right')}  ${cell(`last ${SPARK} s, a bar a second`, SPARK)}${cell('axis top', 10, 'right')}`}</Text>
      <Row label="renders" value={count(s.perMinute.renders)} history={renders} axis={perMinuteAxis} />
      <Row
        label="generations"
        value={count(s.perMinute.generations)}
        history={generations}
        axis={perMinuteAxis}
      />
      <Row label="pages" value={count(s.perMinute.pages)} history={pages} axis={perMinuteAxis} />
      <Row label="429s" value={count(s.perMinute.rejected)} history={rejected} axis={perMinuteAxis} />
      <Row
        label="latency p50"
        value={latency(s.renderLatencyMs.p50)}
        history={p50}
        axis={latencyAxis}
        unit=" ms"
      />
      <Row
        label="latency p99"
        value={latency(s.renderLatencyMs.p99)}
        history={p99}
        axis={latencyAxis}
        unit=" ms"
      />
      <Text>
        <Text bold>Errors, last minute </Text>
        {errors.length === 0 ? (
          <Text dimColor>none</Text>
        ) : (
          cell(errors.map(([c, n]) => `${c} ${n}`).join(' · '), 58)
        )}
      </Text>
      <Text bold>Instances</Text>
      {shownInstances.map((i) => (
        <Text key={i.instance}>
          {'  '}
          {cell(i.role, 7)}
          {cell(i.instance, 34)} up {cell(uptime(i.uptimeSeconds), 7)} pool {i.pool.busy}/{i.pool.threads}
        </Text>
      ))}
      {s.instances.length > shownInstances.length ? (
        <Text dimColor> and {s.instances.length - shownInstances.length} more</Text>
      ) : null}
    </Box>
  );
}

/** The window of `rows` lines around the selection, so a long list scrolls. */
export function windowOf<T>(
  items: readonly T[],
  selected: number,
  rows: number,
): { start: number; shown: T[] } {
  const start = Math.max(0, Math.min(selected - Math.floor(rows / 2), items.length - rows));
  return { start, shown: items.slice(start, start + rows) };
}

const LIST_ROWS = 14;

/** Live plan sheets used this period of those granted: "120/1,000"; "–" without a plan grant. */
const planUse = (p: { sheetsUsed: number; sheetsPerPeriod: number }) =>
  p.sheetsPerPeriod > 0 ? `${count(p.sheetsUsed)}/${count(p.sheetsPerPeriod)}` : '–';

/** The selected row is marked in text as well as in reverse video (a monochrome terminal still shows it). */
const mark = (selected: boolean) => (selected ? '› ' : '  ');

export function Accounts(props: { accounts: AccountRow[]; selected: number }) {
  const { start, shown } = windowOf(props.accounts, props.selected, LIST_ROWS);
  return (
    <Box flexDirection="column">
      <Text
        bold
      >{`  ${cell('Account', 19)}${cell('Plan', 6)}${cell('Plan used', 13, 'right')}${cell('Live', 8, 'right')}${cell('Test', 7, 'right')}${cell('Pages today', 12, 'right')}${cell('Requests', 10, 'right')}`}</Text>
      {props.accounts.length === 0 ? <Text dimColor>No accounts yet.</Text> : null}
      {shown.map((a, i) => {
        const u = a.usageToday;
        return (
          <Text key={a.account.id} inverse={start + i === props.selected}>
            {mark(start + i === props.selected)}
            {cell(a.account.name, 19)}
            {cell(a.account.plan, 6)}
            {cell(planUse(a.balances.live.subscription), 13, 'right')}
            {cell(count(a.balances.live.availableSheets), 8, 'right')}
            {cell(count(a.balances.test.availableSheets), 7, 'right')}
            {cell(count(u.live.pages + u.test.pages), 12, 'right')}
            {cell(count(u.live.requests + u.test.requests), 10, 'right')}
          </Text>
        );
      })}
      <Text dimColor>
        {props.accounts.length > 0
          ? `${props.selected + 1} of ${props.accounts.length} · plan used: live sheets this period · live, test: sheets available`
          : ''}
      </Text>
    </Box>
  );
}

export function Keys(props: { account: AccountRow; keys: ApiKeyRecord[]; selected: number }) {
  const { start, shown } = windowOf(props.keys, props.selected, LIST_ROWS - 1);
  return (
    <Box flexDirection="column">
      <Text bold>Keys of {props.account.account.name}</Text>
      <Text
        bold
      >{`  ${cell('Key', 24)}${cell('Mode', 6)}${cell('Name', 18)}${cell('Created', 12)}${cell('State', 12)}`}</Text>
      {props.keys.length === 0 ? <Text dimColor>No keys.</Text> : null}
      {shown.map((k, i) => (
        <Text key={k.id} inverse={start + i === props.selected} dimColor={k.revokedAt !== null}>
          {mark(start + i === props.selected)}
          {cell(k.id, 24)}
          {cell(k.mode, 6)}
          {cell(k.name || k.displayPrefix, 18)}
          {cell(k.createdAt.slice(0, 10), 12)}
          {cell(k.revokedAt ? 'revoked' : 'active', 12)}
        </Text>
      ))}
    </Box>
  );
}

export const JOB_FILTERS = ['all', 'queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type JobFilter = (typeof JOB_FILTERS)[number];

export function Jobs(props: {
  jobs: JobRow[];
  selected: number;
  filter: JobFilter;
  names: Record<string, string>;
}) {
  const { start, shown } = windowOf(props.jobs, props.selected, LIST_ROWS - 1);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Filter </Text>
        {JOB_FILTERS.map((f) => (
          <Text key={f} inverse={f === props.filter}>{` ${f} `}</Text>
        ))}
      </Text>
      <Text
        bold
      >{`  ${cell('Job', 27)}${cell('Account', 13)}${cell('Kind', 10)}${cell('Status', 11)}${cell('Pages', 6, 'right')}  ${cell('Created', 8)}`}</Text>
      {props.jobs.length === 0 ? (
        <Text dimColor>No jobs{props.filter === 'all' ? '' : ` ${props.filter}`}.</Text>
      ) : null}
      {shown.map((j, i) => (
        <Text key={j.id} inverse={start + i === props.selected}>
          {mark(start + i === props.selected)}
          {cell(j.id, 27)}
          {cell(props.names[j.accountId] ?? j.accountId, 13)}
          {cell(`${j.kind}${j.mode === 'test' ? '·t' : ''}`, 10)}
          <Text color={j.status === 'failed' ? 'red' : j.status === 'completed' ? 'green' : undefined}>
            {cell(j.status, 11)}
          </Text>
          {cell(j.pages === undefined ? '' : String(j.pages), 6, 'right')}
          {'  '}
          {clock(j.createdAt)}
        </Text>
      ))}
    </Box>
  );
}

export const HELP: [string, string][] = [
  ['1 2 3 / Tab', 'dashboard, accounts, jobs'],
  ['↑ ↓ or k j', 'move the selection'],
  ['t', 'accounts: top up the selected account'],
  ['Enter', 'accounts: its keys (Esc back)'],
  ['r', 'keys: revoke the selected key'],
  ['f', 'jobs: next status filter'],
  ['c', 'jobs: cancel the selected job'],
  ['y / n', 'confirm or drop an action'],
  ['?', 'this help (any key closes it)'],
  ['q', 'quit'],
];

export function Help() {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Keys</Text>
      {HELP.map(([k, what]) => (
        <Text key={k}>
          {cell(k, 14)}
          {what}
        </Text>
      ))}
    </Box>
  );
}

/** The bottom line: a question being asked, an input being typed, or the last result. */
export function Footer(props: {
  prompt?: string;
  input?: string;
  message?: { text: string; error: boolean };
}) {
  if (props.prompt !== undefined) {
    return (
      <Text>
        <Text color="yellow">{props.prompt}</Text>
        {props.input !== undefined ? <Text> {props.input}▏</Text> : null}
      </Text>
    );
  }
  if (props.message)
    return <Text color={props.message.error ? 'red' : 'green'}>{cell(props.message.text, 79)}</Text>;
  return <Text dimColor> </Text>;
}

// The console's screens as pure components: the same props always draw the same frame, so each
// can be rendered to a string at a fixed size and compared. Everything fits 80 x 24; a larger
// terminal gets wider columns and longer lists.
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { AdminAccount, AdminKey, AdminSnapshot as Snapshot } from '../src/api/admin/index.ts';
import type { LiveState } from './client.ts';
import { cell, clock, count, dateTime, niceCeiling, span, sparkline, uptime, wrapWords } from './format.ts';

export const VIEWS = ['dashboard', 'accounts', 'jobs', 'requests'] as const;
export type View = (typeof VIEWS)[number];

/** The terminal's size in characters; the console draws at 80 x 24 at the least. */
export interface Size {
  columns: number;
  rows: number;
}
export const SMALLEST: Size = { columns: 80, rows: 24 };

/** The size the console draws at in a terminal of `columns` x `rows` (unknown: the smallest). */
export function sizeOf(columns: number | undefined, rows: number | undefined): Size {
  return { columns: Math.max(SMALLEST.columns, columns ?? 0), rows: Math.max(SMALLEST.rows, rows ?? 0) };
}

/** What a size gives beyond the smallest, in columns and rows. */
const extra = (size: Size) => ({
  columns: size.columns - SMALLEST.columns,
  rows: size.rows - SMALLEST.rows,
});

/** Rows of a list: 14 at 24 rows, one more for every row beyond. */
const listRows = (size: Size) => 14 + extra(size).rows;

/** The whole screen: the header, the view below it, and the footer on the last line. */
export function Screen(props: { size: Size; header: ReactNode; footer: ReactNode; children?: ReactNode }) {
  return (
    <Box flexDirection="column" width={props.size.columns} height={props.size.rows}>
      {props.header}
      <Box flexDirection="column" flexGrow={1} marginTop={1}>
        {props.children}
      </Box>
      {props.footer}
    </Box>
  );
}
/** An admin job as listed (GET /admin/v1/jobs, AdminJob): the fields the console reads. */
export interface JobRow {
  id: string;
  accountId: string;
  mode: string;
  kind: string;
  status: string;
  templateId?: string;
  pages?: number;
  attempt: number;
  /** Why an unfinished job the queue holds is not running (AdminJob's `wait`). */
  wait?: JobWaitRow;
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  cancelledAt?: string;
  failedAt?: string;
  error?: { code: string; message: string };
  requestId?: string;
  metadata?: Record<string, string>;
}

export interface JobWaitRow {
  reason: string;
  until?: string;
  faults: number;
}

/** The status a list shows: a job waiting out a retry's back-off, or held behind its account's job, says so. */
export function shownStatus(j: JobRow): string {
  if (j.wait?.reason === 'retry') return `retry ${j.wait.faults}`;
  if (j.wait?.reason === 'account') return 'held';
  return j.status;
}

/**
 * Why a job waits, in words: delayed until when and for which retry, or behind its account's
 * running job, or next in line. Empty for a job the queue does not hold waiting.
 */
export function waitText(w: JobWaitRow | undefined): string {
  if (!w) return '';
  const runs = `${w.faults} run${w.faults === 1 ? '' : 's'} in a row failed on a fault of the service`;
  if (w.reason === 'retry')
    return `delayed${w.until ? ` until ${clock(w.until)} UTC` : ''} for retry ${w.faults}: ${runs}`;
  if (w.reason === 'account')
    return `held: its account has a job rendering (one at a time)${w.until ? `, next look ${clock(w.until)} UTC` : ''}${w.faults ? `; then retry ${w.faults}` : ''}`;
  return `next in line for a render thread${w.faults ? `, for retry ${w.faults}` : ''}`;
}

/** A job's tries: the count, marked when it was started more than once. */
const tries = (j: JobRow) => (j.attempt > 1 ? `↻${j.attempt}` : String(j.attempt));

/** When a finished job finished; nothing while it is queued or processing. */
const finishedAt = (j: JobRow) => j.completedAt ?? j.failedAt ?? j.cancelledAt;
const between = (from: string | undefined, to: string | undefined) =>
  from && to ? span(Date.parse(to) - Date.parse(from)) : '';

/**
 * Whether a job matches the `/` filter: every word of it is found (any case) in the job's id,
 * account name or id, kind, mode, status, error code or message, request id or metadata.
 */
export function jobMatches(j: JobRow, query: string, names: Record<string, string>): boolean {
  const hay = [
    j.id,
    j.accountId,
    names[j.accountId] ?? '',
    j.kind,
    j.mode,
    j.status,
    j.error?.code ?? '',
    j.error?.message ?? '',
    j.requestId ?? '',
    ...Object.entries(j.metadata ?? {}).map(([k, v]) => `${k}=${v}`),
  ]
    .join(' ')
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((word) => hay.includes(word));
}

/** JSON of an account summary (dates as strings, as they arrive). */
export type AccountRow = AdminAccount;

export function Header(props: { url: string; view: View; live: LiveState; mode?: string; size?: Size }) {
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
          Scriptorium{' '}
          <Text dimColor>{cell(props.url, 30 + extra(props.size ?? SMALLEST).columns).trimEnd()}</Text>
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

/** Bars of a sparkline: one a second, 40 at 80 columns and one more for every column beyond. */
const sparkWidth = (size: Size) => 40 + extra(size).columns;

function Row(props: {
  label: string;
  value: string;
  history: number[];
  axis: number;
  width: number;
  unit?: string;
}) {
  return (
    <Text>
      {cell(props.label, 14)}
      {cell(props.value, 10, 'right')}
      {'  '}
      <Text color="cyan">{sparkline(props.history, props.width, props.axis)}</Text>
      <Text dimColor>{` ${cell(`${count(props.axis)}${props.unit ?? ''}`, 9, 'right')}`}</Text>
    </Text>
  );
}

const latency = (ms: number | null) => (ms === null ? '–' : `${count(ms)} ms`);

/** Throughput and queue figures; `history` holds the earlier snapshots, oldest first, newest last. */
export function Dashboard(props: { snapshot: Snapshot | null; history: Snapshot[]; size?: Size }) {
  const s = props.snapshot;
  if (!s) return <Text dimColor>Waiting for the first figures…</Text>;
  const size = props.size ?? SMALLEST;
  const SPARK = sparkWidth(size);
  const h = props.history;
  const series = (f: (x: Snapshot) => number) => h.map(f);
  const roles: Record<string, number> = {};
  for (const i of s.instances) roles[i.role] = (roles[i.role] ?? 0) + 1;
  const errors = Object.entries(s.errors).sort((a, b) => b[1] - a[1]);
  const shownInstances = s.instances.slice(0, 4 + extra(size).rows);
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
  const rows = [
    { label: 'renders', value: count(s.perMinute.renders), history: renders, axis: perMinuteAxis },
    {
      label: 'generations',
      value: count(s.perMinute.generations),
      history: generations,
      axis: perMinuteAxis,
    },
    { label: 'pages', value: count(s.perMinute.pages), history: pages, axis: perMinuteAxis },
    { label: '429s', value: count(s.perMinute.rejected), history: rejected, axis: perMinuteAxis },
    {
      label: 'latency p50',
      value: latency(s.renderLatencyMs.p50),
      history: p50,
      axis: latencyAxis,
      unit: ' ms',
    },
    {
      label: 'latency p99',
      value: latency(s.renderLatencyMs.p99),
      history: p99,
      axis: latencyAxis,
      unit: ' ms',
    },
  ];
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Queue </Text>
        waiting {s.queue.waiting} · active {s.queue.active} · delayed {s.queue.delayed} · completed today{' '}
        {count(s.queue.completedToday)} · failed today {count(s.queue.failedToday)}
      </Text>
      <Text>
        <Text bold>Delayed </Text>
        {s.queue.delayed === 0 ? (
          <Text dimColor>none</Text>
        ) : (
          cell(
            [
              s.queue.retrying ? `${s.queue.retrying} waiting to retry after a fault` : '',
              s.queue.delayed > s.queue.retrying
                ? `${s.queue.delayed - s.queue.retrying} behind their account's job`
                : '',
            ]
              .filter(Boolean)
              .join(' · '),
            70 + extra(size).columns,
          )
        )}
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
      {rows.map((r) => (
        <Row key={r.label} width={SPARK} {...r} />
      ))}
      <Text>
        <Text bold>Errors, last minute </Text>
        {errors.length === 0 ? (
          <Text dimColor>none</Text>
        ) : (
          cell(errors.map(([c, n]) => `${c} ${n}`).join(' · '), 58 + extra(size).columns)
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

/** Live plan sheets used this period of those granted: "120/1,000"; "–" without a plan grant. */
const planUse = (p: { sheetsUsed: number; sheetsPerPeriod: number }) =>
  p.sheetsPerPeriod > 0 ? `${count(p.sheetsUsed)}/${count(p.sheetsPerPeriod)}` : '–';

/** The selected row is marked in text as well as in reverse video (a monochrome terminal still shows it). */
const mark = (selected: boolean) => (selected ? '› ' : '  ');

export function Accounts(props: { accounts: AccountRow[]; selected: number; size?: Size }) {
  const size = props.size ?? SMALLEST;
  const name = 17 + extra(size).columns;
  const { start, shown } = windowOf(props.accounts, props.selected, listRows(size));
  return (
    <Box flexDirection="column">
      <Text
        bold
      >{`  ${cell('Account', name)}${cell('Plan', 6)}${cell('Plan used', 13, 'right')}${cell('Live', 9, 'right')}${cell('Test', 9, 'right')}${cell('Pages today', 12, 'right')}${cell('Requests', 10, 'right')}`}</Text>
      {props.accounts.length === 0 ? <Text dimColor>No accounts yet.</Text> : null}
      {shown.map((a, i) => {
        const u = a.usageToday;
        return (
          <Text key={a.account.id} inverse={start + i === props.selected}>
            {mark(start + i === props.selected)}
            {cell(a.account.name, name)}
            {cell(a.account.plan, 6)}
            {cell(planUse(a.balances.live.subscription), 13, 'right')}
            {cell(count(a.balances.live.availableSheets), 9, 'right')}
            {cell(count(a.balances.test.availableSheets), 9, 'right')}
            {cell(count(u.live.pages + u.test.pages), 12, 'right')}
            {cell(count(u.live.requests + u.test.requests), 10, 'right')}
          </Text>
        );
      })}
      <Text dimColor>
        {props.accounts.length > 0
          ? cell(
              `${props.selected + 1} of ${props.accounts.length} · plan used: live sheets this period · live, test: sheets available · Enter: keys`,
              size.columns - 1,
            )
          : ''}
      </Text>
    </Box>
  );
}

/** The line under a list: the selected item in full (an id to copy), and a second line in `tone`. */
function Selected(props: { size: Size; first: string; second?: string; tone?: 'red' }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>{cell(props.first, props.size.columns - 1)}</Text>
      <Text color={props.tone}>{cell(props.second ?? '', props.size.columns - 1)}</Text>
    </Box>
  );
}

export function Keys(props: { account: AccountRow; keys: AdminKey[]; selected: number; size?: Size }) {
  const size = props.size ?? SMALLEST;
  const name = 16 + extra(size).columns;
  const { start, shown } = windowOf(props.keys, props.selected, listRows(size) - 3);
  const k = props.keys[props.selected];
  return (
    <Box flexDirection="column">
      <Text bold>Keys of {props.account.account.name}</Text>
      <Text
        bold
      >{`  ${cell('Key', 17)}${cell('Mode', 5)}${cell('Name', name)}${cell('Created', 11)}${cell('Last used', 17)}${cell('State', 8)}`}</Text>
      {props.keys.length === 0 ? <Text dimColor>No keys.</Text> : null}
      {shown.map((key, i) => (
        <Text key={key.id} inverse={start + i === props.selected} dimColor={key.revokedAt !== null}>
          {mark(start + i === props.selected)}
          {cell(key.displayPrefix, 17)}
          {cell(key.mode, 5)}
          {cell(key.name, name)}
          {cell(key.createdAt.slice(0, 10), 11)}
          {cell(key.lastUsedAt ? dateTime(key.lastUsedAt) : 'never', 17)}
          {cell(key.revokedAt ? 'revoked' : 'active', 8)}
        </Text>
      ))}
      {k ? (
        <Selected
          size={size}
          first={`${k.id} · ${k.displayPrefix}… · ${k.name}`}
          second={`created ${dateTime(k.createdAt, true)} · last used ${k.lastUsedAt ? dateTime(k.lastUsedAt, true) : 'never'}${k.revokedAt ? ` · revoked ${dateTime(k.revokedAt, true)}` : ''} (UTC)`}
        />
      ) : null}
    </Box>
  );
}

export const JOB_FILTERS = ['all', 'queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type JobFilter = (typeof JOB_FILTERS)[number];

const statusColor = (status: string) =>
  status === 'failed'
    ? 'red'
    : status === 'completed'
      ? 'green'
      : status === 'held' || status.startsWith('retry')
        ? 'yellow'
        : undefined;

export function Jobs(props: {
  jobs: JobRow[];
  selected: number;
  filter: JobFilter;
  query?: string;
  names: Record<string, string>;
  size?: Size;
}) {
  const size = props.size ?? SMALLEST;
  const wide = size.columns >= 120;
  const idWidth = wide ? 27 : 16;
  const accountWidth = wide ? 18 : 13;
  // The error code takes what the other columns leave, when that is room for one.
  const errorWidth = size.columns - 2 - idWidth - accountWidth - 10 - 11 - 6 - 4 - 8 - 9 - 2;
  const showError = errorWidth >= 12;
  const { start, shown } = windowOf(props.jobs, props.selected, listRows(size) - 4);
  const j = props.jobs[props.selected];
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Filter </Text>
        {JOB_FILTERS.map((f) => (
          <Text key={f} inverse={f === props.filter}>{` ${f} `}</Text>
        ))}
        {props.query ? <Text color="yellow">{` / ${cell(props.query, 16)}`}</Text> : null}
      </Text>
      <Text
        bold
      >{`  ${cell('Job', idWidth)}${cell('Account', accountWidth)}${cell('Kind', 10)}${cell('Status', 11)}${cell('Pages', 6, 'right')}${cell('Try', 4, 'right')}${cell('Took', 8, 'right')}${cell('Created', 9, 'right')}${showError ? `  ${cell('Failure', errorWidth)}` : ''}`}</Text>
      {props.jobs.length === 0 ? (
        <Text dimColor>
          No jobs{props.filter === 'all' ? '' : ` ${props.filter}`}
          {props.query ? ` matching "${cell(props.query, 30).trimEnd()}"` : ''}.
        </Text>
      ) : null}
      {shown.map((job, i) => (
        <Text key={job.id} inverse={start + i === props.selected}>
          {mark(start + i === props.selected)}
          {cell(job.id, idWidth)}
          {cell(props.names[job.accountId] ?? job.accountId, accountWidth)}
          {cell(`${job.kind}${job.mode === 'test' ? '·t' : ''}`, 10)}
          <Text color={statusColor(shownStatus(job))}>{cell(shownStatus(job), 11)}</Text>
          {cell(job.pages === undefined ? '' : String(job.pages), 6, 'right')}
          <Text color={job.attempt > 1 ? 'yellow' : undefined}>{cell(tries(job), 4, 'right')}</Text>
          {cell(between(job.startedAt, finishedAt(job)), 8, 'right')}
          {cell(clock(job.createdAt), 9, 'right')}
          {showError ? `  ${cell(job.error?.code ?? '', errorWidth)}` : ''}
        </Text>
      ))}
      {j ? (
        <Selected
          size={size}
          first={`${j.id} · ${props.names[j.accountId] ?? ''} ${j.accountId} · Enter: details`}
          {...(j.error
            ? { second: `${j.error.code}: ${j.error.message}`, tone: 'red' as const }
            : { second: waitText(j.wait) })}
        />
      ) : null}
    </Box>
  );
}

/** A labelled value over several lines, its words wrapped to `width`; a `first` line in `color` above them. */
function Lines(props: {
  label: string;
  width: number;
  text: string;
  first?: string;
  color: 'red' | 'yellow';
}) {
  return (
    <Box>
      <Box width={12}>
        <Text>{props.label}</Text>
      </Box>
      <Box width={props.width} flexDirection="column">
        {props.first !== undefined ? <Text color={props.color}>{props.first}</Text> : null}
        {wrapWords(props.text, props.width - 1).map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text, in order
          <Text key={i} color={props.first === undefined ? props.color : undefined}>
            {line}
          </Text>
        ))}
      </Box>
    </Box>
  );
}

/** One job in full (Enter on the jobs list). */
export function JobDetail(props: { job: JobRow; names: Record<string, string>; size?: Size }) {
  const size = props.size ?? SMALLEST;
  const j = props.job;
  const done = finishedAt(j);
  const rows: [string, string][] = [
    ['Account', `${props.names[j.accountId] ?? ''} ${j.accountId}`.trim()],
    ['Kind', `${j.kind}, ${j.mode} mode`],
    ['Status', j.status],
    ...(j.wait ? ([['Waits', waitText(j.wait)]] as [string, string][]) : []),
    ['Pages', j.pages === undefined ? '–' : String(j.pages)],
    [
      'Attempts',
      j.attempt > 1 ? `${j.attempt}, started again after a run that did not finish` : String(j.attempt),
    ],
    ['Created', `${dateTime(j.createdAt, true)} UTC`],
    [
      'Started',
      j.startedAt
        ? `${dateTime(j.startedAt, true)} UTC, after ${between(j.createdAt, j.startedAt)} queued`
        : '–',
    ],
    [
      j.status === 'cancelled' ? 'Cancelled' : j.status === 'failed' ? 'Failed' : 'Finished',
      done ? `${dateTime(done, true)} UTC${j.startedAt ? `, took ${between(j.startedAt, done)}` : ''}` : '–',
    ],
    ['Template', j.templateId ?? '–'],
    ['Request', j.requestId ?? '–'],
    [
      'Metadata',
      Object.entries(j.metadata ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(' · ') || '–',
    ],
  ];
  const width = size.columns - 14;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Job {j.id}</Text>
        <Text dimColor> Esc back · c cancel</Text>
      </Text>
      {rows.map(([label, value]) =>
        label === 'Waits' ? (
          <Lines key={label} label={label} width={width} text={value} color="yellow" />
        ) : (
          <Text key={label}>
            {cell(label, 12)}
            <Text color={label === 'Status' ? statusColor(value) : undefined}>{cell(value, width)}</Text>
          </Text>
        ),
      )}
      {j.error ? (
        <Lines label="Failure" width={width} first={j.error.code} color="red" text={j.error.message} />
      ) : null}
    </Box>
  );
}

/** A plan change request as listed (GET /admin/v1/plan-requests): the fields the console reads. */
export interface PlanRequestRow {
  id: string;
  accountId: string;
  plan: string;
  periodDays: number | null;
  note: string;
  status: string;
  fromPlan: string;
  decisionNote: string | null;
  decidedAt: string | null;
  createdAt: string;
}

export const REQUEST_FILTERS = ['pending', 'all'] as const;
export type RequestFilter = (typeof REQUEST_FILTERS)[number];

const planAsked = (r: PlanRequestRow) => `${r.plan}${r.periodDays ? ` ${r.periodDays} d` : ''}`;

/** Plan change requests: the pending ones (or all), each account's ask, and the selected one in full. */
export function Requests(props: {
  requests: PlanRequestRow[];
  selected: number;
  filter: RequestFilter;
  names: Record<string, string>;
  size?: Size;
}) {
  const size = props.size ?? SMALLEST;
  const name = 20 + extra(size).columns;
  const { start, shown } = windowOf(props.requests, props.selected, listRows(size) - 4);
  const r = props.requests[props.selected];
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Plan requests </Text>
        {REQUEST_FILTERS.map((f) => (
          <Text key={f} inverse={f === props.filter}>{` ${f} `}</Text>
        ))}
        <Text dimColor> a approve · x refuse · f filter</Text>
      </Text>
      <Text
        bold
      >{`  ${cell('Account', name)}${cell('From', 9)}${cell('Asks', 13)}${cell('Status', 10)}${cell('Requested', 18)}`}</Text>
      {props.requests.length === 0 ? (
        <Text dimColor>No plan requests{props.filter === 'pending' ? ' pending' : ''}.</Text>
      ) : null}
      {shown.map((req, i) => (
        <Text key={req.id} inverse={start + i === props.selected}>
          {mark(start + i === props.selected)}
          {cell(props.names[req.accountId] ?? req.accountId, name)}
          {cell(req.fromPlan, 9)}
          {cell(planAsked(req), 13)}
          <Text color={req.status === 'pending' ? 'yellow' : req.status === 'refused' ? 'red' : undefined}>
            {cell(req.status, 10)}
          </Text>
          {cell(dateTime(req.createdAt), 18)}
        </Text>
      ))}
      {r ? (
        <Selected
          size={size}
          first={`${r.id} · ${props.names[r.accountId] ?? ''} ${r.accountId}`}
          {...(r.status === 'pending'
            ? { second: r.note ? `note: ${r.note}` : 'no note' }
            : {
                second: `${r.status} ${r.decidedAt ? dateTime(r.decidedAt) : ''}${r.decisionNote ? `: ${r.decisionNote}` : ''}`,
                ...(r.status === 'refused' ? { tone: 'red' as const } : {}),
              })}
        />
      ) : null}
    </Box>
  );
}

export const HELP: [string, string][] = [
  ['1 2 3 4 / Tab', 'dashboard, accounts, jobs, plan requests'],
  ['↑ ↓ or k j', 'move the selection'],
  ['t', 'accounts: top up the selected account'],
  ['Enter', 'accounts: its keys; jobs: the job in full (Esc back)'],
  ['r', 'keys: revoke the selected key'],
  ['f', 'jobs, requests: next status filter'],
  ['/', 'jobs: filter by words (id, account, error, …)'],
  ['c', 'jobs: cancel the selected job'],
  ['a / x', 'requests: approve / refuse (with a reason)'],
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
  /** The prompt says why the last answer was refused (in red); the input stays to be mended. */
  refused?: boolean;
  input?: string;
  message?: { text: string; error: boolean };
  size?: Size;
}) {
  const width = (props.size ?? SMALLEST).columns - 1;
  if (props.prompt !== undefined) {
    const input = props.input === undefined ? '' : ` ${props.input}▏`;
    return (
      <Text>
        <Text color={props.refused ? 'red' : 'yellow'}>
          {cell(props.prompt, Math.max(10, width - input.length), 'left').trimEnd()}
        </Text>
        {props.input !== undefined ? <Text>{input.slice(-(width - 10))}</Text> : null}
      </Text>
    );
  }
  if (props.message)
    return <Text color={props.message.error ? 'red' : 'green'}>{cell(props.message.text, width)}</Text>;
  return <Text dimColor> </Text>;
}

// The console: live figures from the admin socket, accounts and jobs from the admin API, and the
// operator's actions (top up, revoke a key, cancel a job), each confirmed before it is sent.
import { useApp, useInput, useStdin, useStdout } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdminKey, AdminPage as Page, AdminSnapshot as Snapshot } from '../src/api/admin/index.ts';
import type { AdminClient, LiveState } from './client.ts';
import { count } from './format.ts';
import {
  Accounts,
  type AccountRow,
  Dashboard,
  Footer,
  Header,
  Help,
  JOB_FILTERS,
  JobDetail,
  type JobFilter,
  type JobRow,
  Jobs,
  jobMatches,
  Keys,
  type PlanRequestRow,
  REQUEST_FILTERS,
  type RequestFilter,
  Requests,
  Screen,
  type Size,
  sizeOf,
  VIEWS,
  type View,
} from './views.tsx';

const HISTORY = 60;

type Pending =
  | { kind: 'topup-sheets'; account: AccountRow; input: string; mode: 'live' | 'test'; refused?: string }
  | { kind: 'refuse-reason'; request: PlanRequestRow; input: string }
  | { kind: 'search'; input: string }
  | { kind: 'confirm'; question: string; run: () => Promise<string> };

export function App(props: { client: AdminClient; pollMs?: number }) {
  const { client } = props;
  const pollMs = props.pollMs ?? 1000;
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const { stdout } = useStdout();
  const [size, setSize] = useState<Size>(() => sizeOf(stdout.columns, stdout.rows));
  useEffect(() => {
    const resized = () => setSize(sizeOf(stdout.columns, stdout.rows));
    stdout.on('resize', resized);
    return () => {
      stdout.off('resize', resized);
    };
  }, [stdout]);
  const [live, setLive] = useState<LiveState>({ status: 'connecting' });
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [history, setHistory] = useState<Snapshot[]>([]);
  const [view, setView] = useState<View>('dashboard');
  const [help, setHelp] = useState(false);
  const [accounts, setAccounts] = useState<AccountRow[]>([]);
  const [accountAt, setAccountAt] = useState(0);
  const [keysOf, setKeysOf] = useState<AccountRow | null>(null);
  const [keys, setKeys] = useState<AdminKey[]>([]);
  const [keyAt, setKeyAt] = useState(0);
  const [jobs, setJobs] = useState<JobRow[]>([]);
  const [jobAt, setJobAt] = useState(0);
  const [filter, setFilter] = useState<JobFilter>('all');
  const [query, setQuery] = useState('');
  const [detailOf, setDetailOf] = useState<string | null>(null);
  const [requests, setRequests] = useState<PlanRequestRow[]>([]);
  const [requestAt, setRequestAt] = useState(0);
  const [requestFilter, setRequestFilter] = useState<RequestFilter>('pending');
  const [pending, showPending] = useState<Pending | null>(null);
  // Keys typed or pasted fast arrive before the next render: each reads and writes the question as
  // the key before left it, not as it was last drawn.
  const pendingNow = useRef<Pending | null>(null);
  const setPending = useCallback((next: Pending | null) => {
    pendingNow.current = next;
    showPending(next);
  }, []);
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const names = useRef<Record<string, string>>({});

  useEffect(
    () =>
      client.live({
        onSnapshot: (s) => {
          setSnapshot(s);
          setHistory((h) => [...h.slice(-(HISTORY - 1)), s]);
        },
        onState: setLive,
      }),
    [client],
  );

  const refused = live.status === 'refused';
  /** The refresh last begun: an earlier one still answering (read before an action) sets nothing. */
  const refreshes = useRef(0);
  const refresh = useCallback(async () => {
    // While the token is refused the lists keep their last state: asking again with it would
    // only count as more wrong guesses.
    if (refused) return;
    const mine = ++refreshes.current;
    const latest = () => mine === refreshes.current;
    try {
      if (view === 'accounts' || view === 'jobs' || view === 'requests') {
        const page = await client.call<Page<AccountRow>>('GET', '/accounts?limit=100');
        if (!latest()) return;
        setAccounts(page.data);
        names.current = Object.fromEntries(page.data.map((a) => [a.account.id, a.account.name]));
      }
      if (view === 'jobs') {
        const page = await client.call<Page<JobRow>>(
          'GET',
          `/jobs?limit=100${filter === 'all' ? '' : `&status=${filter}`}`,
        );
        if (!latest()) return;
        setJobs(page.data);
      }
      if (view === 'requests') {
        const page = await client.call<Page<PlanRequestRow>>(
          'GET',
          `/plan-requests?limit=100${requestFilter === 'all' ? '' : `&status=${requestFilter}`}`,
        );
        if (!latest()) return;
        setRequests(page.data);
      }
      if (view === 'accounts' && keysOf) {
        const keys = (await client.call<{ data: AdminKey[] }>('GET', `/accounts/${keysOf.account.id}/keys`))
          .data;
        if (latest()) setKeys(keys);
      }
    } catch {
      // The header already says the server is away; the lists keep their last state.
    }
  }, [client, view, filter, requestFilter, keysOf, refused]);

  const shownJobs = query ? jobs.filter((j) => jobMatches(j, query, names.current)) : jobs;
  const detail = detailOf ? (jobs.find((j) => j.id === detailOf) ?? null) : null;

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), pollMs);
    return () => clearInterval(timer);
  }, [refresh, pollMs]);

  // What an action changed shows at once (a request decided, a key revoked, a job cancelled): until
  // the next refresh answers, the list must not offer the row for the same action again.
  const changed =
    <T extends { id: string }>(id: string, change: Partial<T>) =>
    (rows: T[]): T[] =>
      rows.map((r) => (r.id === id ? { ...r, ...change } : r));

  const act = (question: string, run: () => Promise<string>) =>
    setPending({ kind: 'confirm', question, run });
  const clamp = (n: number, length: number) => Math.max(0, Math.min(n, length - 1));

  // What the screen shows as it is drawn. Ink draws a frame before it hands keys to the handler
  // of that frame, so a key pressed on a busy machine just after a list changed reaches the handler
  // of the frame before; it acts on the row the operator sees, read from here.
  const shown = { requests, requestAt, keys, keyAt, accounts, accountAt, shownJobs, jobAt, detail };
  const drawn = useRef(shown);
  drawn.current = shown;

  useInput(
    (input, key) => {
      const pending = pendingNow.current;
      const { requests, requestAt, keys, keyAt, accounts, accountAt, shownJobs, jobAt, detail } =
        drawn.current;
      if (help) {
        setHelp(false);
        return;
      }
      if (pending?.kind === 'topup-sheets') {
        const { refused: _, ...asked } = pending;
        if (key.escape) return setPending(null);
        if (key.tab) return setPending({ ...asked, mode: pending.mode === 'live' ? 'test' : 'live' });
        // Keys come one by one, or several in one input when typed fast or pasted (perhaps with the
        // line's end), taken in their order: an erase takes the last digit, a digit is added,
        // thousands separators and spaces do not count.
        let typed = pending.input;
        if (key.backspace || key.delete) typed = typed.slice(0, -1);
        else
          for (const c of input) {
            if (c === '\x7f' || c === '\b') typed = typed.slice(0, -1);
            else if (c >= '0' && c <= '9') typed += c;
          }
        typed = typed.slice(0, 7);
        if (!key.return && !/[\r\n]/.test(input)) return setPending({ ...asked, input: typed });
        const sheets = Number(typed);
        const { account, mode } = pending;
        // A refusal keeps the question open, with the number to mend; Esc leaves it.
        if (!typed || sheets < 50 || sheets > 1000)
          return setPending({
            ...asked,
            input: typed,
            refused: `sheets must be a whole number 50-1000, got ${typed || 'nothing'} (Esc to leave):`,
          });
        act(`Add ${count(sheets)} ${mode} sheets to ${account.account.name}? (y/n)`, async () => {
          const b = await client.call<{ availableSheets: number }>(
            'POST',
            `/accounts/${account.account.id}/topups`,
            { sheets, mode },
          );
          return `Added ${count(sheets)} ${mode} sheets to ${account.account.name}: ${count(b.availableSheets)} available`;
        });
        return;
      }
      if (pending?.kind === 'refuse-reason') {
        if (key.escape) return setPending(null);
        if (key.backspace || key.delete) return setPending({ ...pending, input: pending.input.slice(0, -1) });
        if (!key.return && !/[\r\n]/.test(input)) {
          if (input && !key.ctrl && !key.meta)
            setPending({ ...pending, input: (pending.input + input).slice(0, 200) });
          return;
        }
        const reason = (pending.input + input.replace(/[\r\n].*$/s, '')).trim();
        if (!reason) return;
        const { request } = pending;
        setPending(null);
        setMessage({ text: 'Working…', error: false });
        client.call('POST', `/plan-requests/${request.id}/refuse`, { reason }).then(
          () => {
            setRequests(changed<PlanRequestRow>(request.id, { status: 'refused' }));
            setMessage({
              text: `Refused ${request.plan} for ${names.current[request.accountId] ?? request.accountId}`,
              error: false,
            });
            void refresh();
          },
          (err: Error) => setMessage({ text: err.message, error: true }),
        );
        return;
      }
      if (pending?.kind === 'search') {
        if (key.escape) setPending(null);
        else if (key.return) {
          setQuery(pending.input.trim());
          setJobAt(0);
          setPending(null);
        } else if (key.backspace || key.delete) setPending({ ...pending, input: pending.input.slice(0, -1) });
        else if (input && !key.ctrl && !key.meta)
          setPending({ ...pending, input: (pending.input + input).slice(0, 60) });
        return;
      }
      if (pending?.kind === 'confirm') {
        if (input === 'y') {
          const { run } = pending;
          setPending(null);
          setMessage({ text: 'Working…', error: false });
          run().then(
            (text) => {
              setMessage({ text, error: false });
              void refresh();
            },
            (err: Error) => setMessage({ text: err.message, error: true }),
          );
        } else if (input === 'n' || key.escape) {
          setPending(null);
          setMessage({ text: 'Dropped.', error: false });
        }
        return;
      }
      if (input === 'q') return exit();
      if (input === '?') return setHelp(true);
      const n = Number(input);
      // A new view starts with a clear status line: a message belongs to the view it was said in.
      const show = (next: View) => {
        setMessage(undefined);
        setDetailOf(null);
        setView(next);
      };
      if (n >= 1 && n <= VIEWS.length) return show(VIEWS[n - 1]!);
      if (key.tab) return show(VIEWS[(VIEWS.indexOf(view) + 1) % VIEWS.length]!);
      const up = key.upArrow || input === 'k';
      const down = key.downArrow || input === 'j';
      if (view === 'accounts' && keysOf) {
        if (key.escape) return setKeysOf(null);
        if (up || down) return setKeyAt((i) => clamp(i + (down ? 1 : -1), keys.length));
        const k = keys[keyAt];
        if (input === 'r' && k) {
          if (k.revokedAt) return setMessage({ text: `${k.id} is already revoked`, error: true });
          act(
            `Revoke key ${k.id} (${k.mode}, ${k.name || k.displayPrefix}) of ${keysOf.account.name}? (y/n)`,
            async () => {
              await client.call('POST', `/keys/${k.id}/revoke`);
              setKeys(changed<AdminKey>(k.id, { revokedAt: new Date().toISOString() }));
              return `Revoked ${k.id}: requests with it are refused from now on`;
            },
          );
        }
        return;
      }
      if (view === 'accounts') {
        if (up || down) return setAccountAt((i) => clamp(i + (down ? 1 : -1), accounts.length));
        const a = accounts[accountAt];
        if (input === 't' && a)
          return setPending({ kind: 'topup-sheets', account: a, input: '', mode: 'live' });
        if (key.return && a) {
          setKeyAt(0);
          setKeys([]);
          setKeysOf(a);
        }
        return;
      }
      if (view === 'requests') {
        if (up || down) return setRequestAt((i) => clamp(i + (down ? 1 : -1), requests.length));
        if (input === 'f') {
          setRequestAt(0);
          return setRequestFilter(
            (f) => REQUEST_FILTERS[(REQUEST_FILTERS.indexOf(f) + 1) % REQUEST_FILTERS.length]!,
          );
        }
        const r = requests[requestAt];
        if ((input === 'a' || input === 'x') && r && r.status !== 'pending')
          return setMessage({ text: `${r.id} is ${r.status} already`, error: true });
        const who = r ? (names.current[r.accountId] ?? r.accountId) : '';
        if (input === 'a' && r)
          act(
            `Approve plan ${r.plan}${r.periodDays ? ` (${r.periodDays} days)` : ''} for ${who}? (y/n)`,
            async () => {
              await client.call('POST', `/plan-requests/${r.id}/approve`, {});
              setRequests(changed<PlanRequestRow>(r.id, { status: 'approved' }));
              return `Approved: ${who} has plan ${r.plan} from now on`;
            },
          );
        if (input === 'x' && r) setPending({ kind: 'refuse-reason', request: r, input: '' });
        return;
      }
      if (view === 'jobs') {
        const cancel = (j: JobRow) => {
          if (j.status !== 'queued' && j.status !== 'processing')
            return setMessage({
              text: `${j.id} is ${j.status}; only queued or processing jobs can be cancelled`,
              error: true,
            });
          act(
            `Cancel job ${j.id} of ${names.current[j.accountId] ?? j.accountId}? No charge is made. (y/n)`,
            async () => {
              const done = await client.call<{ status: string }>('POST', `/jobs/${j.id}/cancel`);
              setJobs(changed<JobRow>(j.id, { status: done.status }));
              return `Job ${j.id} is ${done.status}`;
            },
          );
        };
        if (detail) {
          if (key.escape) return setDetailOf(null);
          if (input === 'c') cancel(detail);
          return;
        }
        if (up || down) return setJobAt((i) => clamp(i + (down ? 1 : -1), shownJobs.length));
        if (input === 'f') {
          setJobAt(0);
          return setFilter((f) => JOB_FILTERS[(JOB_FILTERS.indexOf(f) + 1) % JOB_FILTERS.length]!);
        }
        if (input === '/') return setPending({ kind: 'search', input: query });
        if (key.escape && query) {
          setJobAt(0);
          return setQuery('');
        }
        const j = shownJobs[jobAt];
        if (key.return && j) return setDetailOf(j.id);
        if (input === 'c' && j) cancel(j);
      }
    },
    { isActive: isRawModeSupported === true },
  );

  const footer =
    pending?.kind === 'topup-sheets'
      ? {
          prompt:
            pending.refused ??
            `Top up ${pending.account.account.name}, ${pending.mode} (Tab: ${pending.mode === 'live' ? 'test' : 'live'}), sheets 50-1000:`,
          refused: pending.refused !== undefined,
          input: pending.input,
        }
      : pending?.kind === 'refuse-reason'
        ? {
            prompt: `Refuse ${pending.request.plan} for ${names.current[pending.request.accountId] ?? pending.request.accountId}: the reason the account sees (Enter, Esc to drop):`,
            input: pending.input,
          }
        : pending?.kind === 'search'
          ? { prompt: 'Filter jobs (Enter to apply, empty to clear, Esc to drop):', input: pending.input }
          : pending?.kind === 'confirm'
            ? { prompt: pending.question }
            : { message };

  return (
    <Screen
      size={size}
      header={
        <Header
          url={client.url}
          view={view}
          live={live}
          size={size}
          {...(snapshot ? { mode: snapshot.mode } : {})}
        />
      }
      footer={<Footer {...footer} size={size} />}
    >
      {help ? (
        <Help />
      ) : view === 'dashboard' ? (
        <Dashboard snapshot={snapshot} history={history} size={size} />
      ) : view === 'accounts' ? (
        keysOf ? (
          <Keys account={keysOf} keys={keys} selected={keyAt} size={size} />
        ) : (
          <Accounts accounts={accounts} selected={accountAt} size={size} />
        )
      ) : view === 'requests' ? (
        <Requests
          requests={requests}
          selected={requestAt}
          filter={requestFilter}
          names={names.current}
          size={size}
        />
      ) : detail ? (
        <JobDetail job={detail} names={names.current} size={size} />
      ) : (
        <Jobs
          jobs={shownJobs}
          selected={jobAt}
          filter={filter}
          query={query}
          names={names.current}
          size={size}
        />
      )}
    </Screen>
  );
}

// The console: live figures from the admin socket, accounts and jobs from the admin API, and the
// operator's actions (top up, revoke a key, cancel a job), each confirmed before it is sent.
import { Box, useApp, useInput, useStdin } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Snapshot } from '../src/metrics/index.ts';
import type { Page } from '../src/store/paging.ts';
import type { ApiKeyRecord } from '../src/store/accounts.ts';
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
  type JobFilter,
  type JobRow,
  Jobs,
  Keys,
  VIEWS,
  type View,
} from './views.tsx';

const HISTORY = 60;

type Pending =
  | { kind: 'topup-sheets'; account: AccountRow; input: string; mode: 'live' | 'test' }
  | { kind: 'confirm'; question: string; run: () => Promise<string> };

export function App(props: { client: AdminClient; pollMs?: number }) {
  const { client } = props;
  const pollMs = props.pollMs ?? 1000;
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const [live, setLive] = useState<LiveState>({ status: 'connecting' });
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [history, setHistory] = useState<Snapshot[]>([]);
  const [view, setView] = useState<View>('dashboard');
  const [help, setHelp] = useState(false);
  const [accounts, setAccounts] = useState<AccountRow[]>([]);
  const [accountAt, setAccountAt] = useState(0);
  const [keysOf, setKeysOf] = useState<AccountRow | null>(null);
  const [keys, setKeys] = useState<ApiKeyRecord[]>([]);
  const [keyAt, setKeyAt] = useState(0);
  const [jobs, setJobs] = useState<JobRow[]>([]);
  const [jobAt, setJobAt] = useState(0);
  const [filter, setFilter] = useState<JobFilter>('all');
  const [pending, setPending] = useState<Pending | null>(null);
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

  const refresh = useCallback(async () => {
    try {
      if (view === 'accounts' || view === 'jobs') {
        const page = await client.call<Page<AccountRow>>('GET', '/accounts?limit=100');
        setAccounts(page.data);
        names.current = Object.fromEntries(page.data.map((a) => [a.account.id, a.account.name]));
      }
      if (view === 'jobs') {
        const page = await client.call<Page<JobRow>>(
          'GET',
          `/jobs?limit=100${filter === 'all' ? '' : `&status=${filter}`}`,
        );
        setJobs(page.data);
      }
      if (view === 'accounts' && keysOf) {
        setKeys(
          (await client.call<{ data: ApiKeyRecord[] }>('GET', `/accounts/${keysOf.account.id}/keys`)).data,
        );
      }
    } catch {
      // The header already says the server is away; the lists keep their last state.
    }
  }, [client, view, filter, keysOf]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), pollMs);
    return () => clearInterval(timer);
  }, [refresh, pollMs]);

  const act = (question: string, run: () => Promise<string>) =>
    setPending({ kind: 'confirm', question, run });
  const clamp = (n: number, length: number) => Math.max(0, Math.min(n, length - 1));

  useInput(
    (input, key) => {
      if (help) {
        setHelp(false);
        return;
      }
      if (pending?.kind === 'topup-sheets') {
        if (key.escape) setPending(null);
        else if (key.tab) setPending({ ...pending, mode: pending.mode === 'live' ? 'test' : 'live' });
        else if (key.backspace || key.delete) setPending({ ...pending, input: pending.input.slice(0, -1) });
        else if (key.return) {
          const sheets = Number(pending.input);
          const { account, mode } = pending;
          if (!/^\d+$/.test(pending.input) || sheets < 50 || sheets > 1000) {
            setMessage({
              text: `sheets must be a whole number 50-1000, got ${pending.input || 'nothing'}`,
              error: true,
            });
            setPending(null);
            return;
          }
          act(`Add ${count(sheets)} ${mode} sheets to ${account.account.name}? (y/n)`, async () => {
            const b = await client.call<{ availableSheets: number }>(
              'POST',
              `/accounts/${account.account.id}/topups`,
              { sheets, mode },
            );
            return `Added ${count(sheets)} ${mode} sheets to ${account.account.name}: ${count(b.availableSheets)} available`;
          });
        } else if (/^\d+$/.test(input))
          setPending({ ...pending, input: (pending.input + input).slice(0, 4) });
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
      if (view === 'jobs') {
        if (up || down) return setJobAt((i) => clamp(i + (down ? 1 : -1), jobs.length));
        if (input === 'f') {
          setJobAt(0);
          return setFilter((f) => JOB_FILTERS[(JOB_FILTERS.indexOf(f) + 1) % JOB_FILTERS.length]!);
        }
        const j = jobs[jobAt];
        if (input === 'c' && j) {
          if (j.status !== 'queued' && j.status !== 'processing')
            return setMessage({
              text: `${j.id} is ${j.status}; only queued or processing jobs can be cancelled`,
              error: true,
            });
          act(
            `Cancel job ${j.id} of ${names.current[j.accountId] ?? j.accountId}? No charge is made. (y/n)`,
            async () => {
              const done = await client.call<{ status: string }>('POST', `/jobs/${j.id}/cancel`);
              return `Job ${j.id} is ${done.status}`;
            },
          );
        }
      }
    },
    { isActive: isRawModeSupported === true },
  );

  const footer =
    pending?.kind === 'topup-sheets'
      ? {
          prompt: `Top up ${pending.account.account.name}, ${pending.mode} (Tab: ${pending.mode === 'live' ? 'test' : 'live'}), sheets 50-1000:`,
          input: pending.input,
        }
      : pending?.kind === 'confirm'
        ? { prompt: pending.question }
        : { message };

  return (
    <Box flexDirection="column" width={80} height={24}>
      <Header url={client.url} view={view} live={live} {...(snapshot ? { mode: snapshot.mode } : {})} />
      <Box flexDirection="column" flexGrow={1} marginTop={1}>
        {help ? (
          <Help />
        ) : view === 'dashboard' ? (
          <Dashboard snapshot={snapshot} history={history} />
        ) : view === 'accounts' ? (
          keysOf ? (
            <Keys account={keysOf} keys={keys} selected={keyAt} />
          ) : (
            <Accounts accounts={accounts} selected={accountAt} />
          )
        ) : (
          <Jobs jobs={jobs} selected={jobAt} filter={filter} names={names.current} />
        )}
      </Box>
      <Footer {...footer} />
    </Box>
  );
}

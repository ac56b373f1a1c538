// The dashboard: the session, the account and mode being looked at, and the page of the path.
// The mode (live or test) holds across every page; test data is marked on every page.
import { useCallback, useEffect, useState } from 'react';
import { type CallError, call, type SessionView, setCsrf } from './api.ts';
import { Invite, SignIn, SignUp } from './doors.tsx';
import { AssetsPage } from './assets.tsx';
import { BatchesPage } from './batches.tsx';
import { FontsPage } from './fonts.tsx';
import { HandsPage } from './hands.tsx';
import { Jobs } from './jobs.tsx';
import { Keys } from './keys.tsx';
import { Members } from './members.tsx';
import { Templates } from './templates.tsx';
import { Link } from './ui.tsx';
import { UsagePage } from './usage.tsx';
import { WebhooksPage } from './webhooks.tsx';

const PAGES = [
  { path: '/dashboard/keys', title: 'API keys' },
  { path: '/dashboard/templates', title: 'Templates' },
  { path: '/dashboard/images', title: 'Images' },
  { path: '/dashboard/fonts', title: 'Fonts' },
  { path: '/dashboard/handwriting', title: 'Your handwriting' },
  { path: '/dashboard/jobs', title: 'Jobs' },
  { path: '/dashboard/batches', title: 'Batches' },
  { path: '/dashboard/usage', title: 'Usage' },
  { path: '/dashboard/webhooks', title: 'Webhooks' },
  { path: '/dashboard/members', title: 'Members' },
] as const;

type Mode = 'live' | 'test';

export function App() {
  const [path, setPath] = useState(location.pathname);
  const [view, setView] = useState<SessionView | null | undefined>(undefined);
  const [accountId, setAccountId] = useState<string>(() => localStorage.getItem('account') ?? '');
  const [mode, setMode] = useState<Mode>(() => (localStorage.getItem('mode') === 'live' ? 'live' : 'test'));
  const [problem, setProblem] = useState('');

  const go = useCallback((next: string) => {
    history.pushState(null, '', next);
    setPath(next);
  }, []);
  useEffect(() => {
    const back = () => setPath(location.pathname);
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, []);

  const signedIn = useCallback(
    (s: SessionView) => {
      setCsrf(s.csrfToken);
      setView(s);
      if (location.pathname.startsWith('/dashboard/invite')) setAccountId(s.accounts.at(-1)?.accountId ?? '');
      if (!PAGES.some((p) => p.path === location.pathname)) go('/dashboard/keys');
    },
    [go],
  );
  useEffect(() => {
    call<SessionView>('GET', '/session').then(
      (s) => {
        setCsrf(s.csrfToken);
        setView(s);
      },
      (e: CallError) => {
        setView(null);
        if (e.status !== 401) setProblem(e.message);
      },
    );
  }, []);

  const account = view?.accounts.find((a) => a.accountId === accountId) ?? view?.accounts[0];
  useEffect(() => {
    if (account) localStorage.setItem('account', account.accountId);
  }, [account]);
  useEffect(() => {
    localStorage.setItem('mode', mode);
  }, [mode]);
  useEffect(() => {
    const page = PAGES.find((p) => p.path === path);
    document.title = view ? `${page?.title ?? 'Dashboard'} · Scriptorium` : 'Scriptorium dashboard';
  }, [path, view]);

  if (view === undefined) return <p className="loading">Loading…</p>;
  if (path.startsWith('/dashboard/invite')) return <Invite onSignedIn={signedIn} signedIn={view} />;
  if (view && !account)
    return (
      <main className="door">
        <h1>You belong to no account</h1>
        <p>
          Signed in as {view.user.email}, you are a member of no account now. An owner of an account can
          invite you again; the link they send opens it.
        </p>
        <button
          type="button"
          onClick={async () => {
            await call('POST', '/signout').catch(() => {});
            setView(null);
            go('/dashboard/signin');
          }}
        >
          Sign out
        </button>
      </main>
    );
  if (!view || !account) {
    if (problem)
      return (
        <main className="door">
          <p className="error" role="alert">
            {problem}
          </p>
        </main>
      );
    return path === '/dashboard/signup' ? (
      <SignUp onSignedIn={signedIn} go={go} />
    ) : (
      <SignIn onSignedIn={signedIn} go={go} />
    );
  }

  const signOut = async (everywhere: boolean) => {
    await call('POST', everywhere ? '/signout-everywhere' : '/signout').catch(() => {});
    setView(null);
    go('/dashboard/signin');
  };
  const page = PAGES.find((p) => p.path === path) ?? PAGES[0];

  return (
    <div className={`shell mode-${mode}`}>
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header>
        <span className="brand">Scriptorium</span>
        {view.accounts.length > 1 ? (
          <label className="account">
            <span>Account</span>
            <select value={account.accountId} onChange={(e) => setAccountId(e.target.value)}>
              {view.accounts.map((a) => (
                <option key={a.accountId} value={a.accountId}>
                  {a.accountName}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="account">{account.accountName}</span>
        )}
        <fieldset className="mode">
          <legend className="visually-hidden">Data shown</legend>
          {(['test', 'live'] as const).map((m) => (
            <label key={m} className={mode === m ? 'on' : undefined}>
              <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
              {m === 'test' ? 'Test data' : 'Live data'}
            </label>
          ))}
        </fieldset>
        <span className="user">
          {view.user.name}
          <button type="button" onClick={() => signOut(false)}>
            Sign out
          </button>
          <button type="button" onClick={() => signOut(true)}>
            Sign out everywhere
          </button>
        </span>
      </header>
      {mode === 'test' ? (
        <p className="test-banner" role="note">
          Test data: test keys, templates and jobs. Nothing here is billed.
        </p>
      ) : null}
      <nav aria-label="Dashboard">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <Link to={p.path} go={go} current={p.path === page.path}>
                {p.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div id="content">
        {page.path === '/dashboard/members' ? (
          <Members accountId={account.accountId} owner={account.role === 'owner'} me={view.user.id} />
        ) : page.path === '/dashboard/templates' ? (
          <Templates accountId={account.accountId} mode={mode} />
        ) : page.path === '/dashboard/images' ? (
          <AssetsPage accountId={account.accountId} mode={mode} />
        ) : page.path === '/dashboard/fonts' ? (
          <FontsPage accountId={account.accountId} mode={mode} />
        ) : page.path === '/dashboard/handwriting' ? (
          <HandsPage accountId={account.accountId} owner={account.role === 'owner'} />
        ) : page.path === '/dashboard/jobs' ? (
          <Jobs accountId={account.accountId} mode={mode} />
        ) : page.path === '/dashboard/batches' ? (
          <BatchesPage accountId={account.accountId} mode={mode} />
        ) : page.path === '/dashboard/webhooks' ? (
          <WebhooksPage accountId={account.accountId} mode={mode} owner={account.role === 'owner'} />
        ) : page.path === '/dashboard/usage' ? (
          <UsagePage accountId={account.accountId} mode={mode} />
        ) : (
          <Keys accountId={account.accountId} mode={mode} />
        )}
      </div>
    </div>
  );
}

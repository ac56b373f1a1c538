// The dashboard's API spoken over HTTP without a browser: a user signed up, and calls made with
// the session's cookie and CSRF token, as the dashboard's pages make them.
import type { TestServer } from './server.ts';

export interface DashboardSession {
  account: string;
  cookie: string;
  csrf: string;
}

/** A dashboard user, signed up over HTTP; its first account. */
export async function signUpOverHttp(
  server: Pick<TestServer, 'base'>,
  email: string,
  opts: { name?: string; accountName?: string; password?: string } = {},
): Promise<DashboardSession> {
  const up = await fetch(`${server.base}/dashboard/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: opts.name ?? 'Dashboard user',
      accountName: opts.accountName ?? 'Account',
      email,
      password: opts.password ?? 'a long enough passphrase',
    }),
  });
  if (up.status !== 201) throw new Error(`sign-up answered ${up.status}: ${await up.text()}`);
  const view = (await up.json()) as { csrfToken: string; accounts: { accountId: string }[] };
  return {
    account: view.accounts[0]!.accountId,
    cookie: up.headers.get('set-cookie')!.split(';')[0]!,
    csrf: view.csrfToken,
  };
}

/**
 * A call of the session's account (`/dashboard/v1/accounts/{account}{path}`): its body JSON text,
 * or bytes of `contentType` (a picture).
 */
export async function dashboardCall(
  server: Pick<TestServer, 'base'>,
  s: DashboardSession,
  method: string,
  path: string,
  body?: string | Uint8Array,
  contentType = 'application/json',
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON it asked for
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.base}/dashboard/v1/accounts/${s.account}${path}`, {
    method,
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': contentType },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

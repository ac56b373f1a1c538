// The dashboard's calls to its API (/dashboard/v1): the session cookie goes by itself, and every
// state-changing call carries the session's CSRF token.

export interface Membership {
  accountId: string;
  accountName: string;
  role: 'owner' | 'member';
}

export interface SessionView {
  user: { id: string; email: string; name: string };
  accounts: Membership[];
  csrfToken: string;
  keysMax: number;
}

export interface ApiKey {
  id: string;
  mode: 'live' | 'test';
  name: string;
  displayPrefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface Member {
  id: string;
  email: string;
  name: string;
  role: 'owner' | 'member';
  joinedAt: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: 'owner' | 'member';
  createdAt: string;
  expiresAt: string;
}

/** A template as the dashboard lists it (and answers a save with). */
export interface TemplateSummary {
  id: string;
  name: string;
  mode: 'simple' | 'structured' | 'document';
  version: number;
  revision: number;
  updatedAt: string;
}

export class CallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

let csrf = '';
export const setCsrf = (token: string) => {
  csrf = token;
};

export function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  return send<T>(
    method,
    path,
    body === undefined ? undefined : { type: 'application/json', body: JSON.stringify(body) },
  );
}

/** A file's bytes as the body of a POST (an image, a font). */
export function upload<T>(path: string, file: File, type: string): Promise<T> {
  return send<T>('POST', path, { type, body: file });
}

async function send<T>(
  method: 'GET' | 'POST',
  path: string,
  content: { type: string; body: BodyInit } | undefined,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/dashboard/v1${path}`, {
      method,
      credentials: 'same-origin',
      headers: {
        ...(content ? { 'content-type': content.type } : {}),
        ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }),
      },
      body: content?.body,
    });
  } catch {
    throw new CallError(0, 'NETWORK', 'The server does not answer. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as {
    error?: { code: string; message: string; field?: string };
  } | null;
  if (!res.ok) {
    const e = json?.error;
    throw new CallError(res.status, e?.code ?? 'HTTP', e?.message ?? `HTTP ${res.status}`, e?.field);
  }
  return json as T;
}

/** "2026-11-24T19:06:59.244Z" → "24 Nov 2026, 19:06 UTC". */
export function when(iso: string | null): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  return `${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })}, ${iso.slice(11, 16)} UTC`;
}

// Who is calling (spec §5): a Bearer API key, checked for shape and checksum before any store
// lookup, then found by its SHA-256. The key's mode is part of the tenant: the test/live wall.
import { parseApiKey } from '../domain/api-keys.ts';
import { show, apiRefusal } from '../domain/errors.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { Account, Store } from '../store/index.ts';

export interface Caller {
  keyId: string;
  tenant: Tenant;
  account: Account;
}

const BEARER = /^Bearer +(\S+)$/i;

/** The presented key of an Authorization header value (a list when the header was repeated). */
export function presentedKey(authorization: string | readonly string[] | undefined): string {
  if (Array.isArray(authorization)) {
    throw apiRefusal('INVALID_API_KEY', `send one Authorization header, got ${authorization.length}`);
  }
  const value = authorization as string | undefined;
  if (!value) throw apiRefusal('INVALID_API_KEY', 'Authorization must be "Bearer <API key>", got nothing');
  const m = BEARER.exec(value);
  if (!m) {
    const scheme = value.split(/\s/, 1)[0] ?? '';
    throw apiRefusal(
      'INVALID_API_KEY',
      /^bearer$/i.test(scheme)
        ? 'Authorization must be "Bearer <API key>" with nothing else, got extra text after the key'
        : `Authorization must use the Bearer scheme, got ${show(scheme)}`,
    );
  }
  return m[1]!;
}

/** Checks a key the slow way: shape, checksum, then the store (cached there by hash). */
export async function authenticate(
  store: Store,
  authorization: string | readonly string[] | undefined,
): Promise<Caller> {
  return verify(store, presentedKey(authorization));
}

async function verify(store: Store, presented: string): Promise<Caller> {
  const parsed = parseApiKey(presented);
  if (!parsed.ok) {
    throw apiRefusal(
      'INVALID_API_KEY',
      parsed.reason === 'bad checksum'
        ? 'the API key fails its checksum: it was mistyped or cut short'
        : 'the API key must be hw_live_ or hw_test_ and 38 letters or digits',
    );
  }
  const key = await store.accounts.findKey(presented);
  if (!key) throw apiRefusal('INVALID_API_KEY', `the API key ${parsed.display}… is not known`);
  if (key.revokedAt)
    throw apiRefusal('API_KEY_REVOKED', `the API key ${parsed.display}… was revoked at ${key.revokedAt}`);
  return Object.freeze({
    keyId: key.id,
    tenant: Object.freeze({ accountId: key.accountId, mode: key.mode }),
    account: key.account,
  });
}

/**
 * The request path's authenticator: a key verified once is remembered while the database is
 * unchanged (Db.version), so a hot key costs one map lookup; any write anywhere (a revocation by
 * the CLI in another process included) clears it. Where the dialect cannot tell (PostgreSQL) every
 * request takes the slow path, whose store lookup is cached briefly by hash.
 */
export class Authenticator {
  private known = new Map<string, Caller>();
  private token: string | null = null;

  private readonly store: Store;

  constructor(
    d: { store: Store },
    private readonly max = 10_000,
  ) {
    this.store = d.store;
  }

  async authenticate(authorization: string | readonly string[] | undefined): Promise<Caller> {
    const presented = presentedKey(authorization);
    const { token, exact } = this.store.db.version();
    if (!exact) return verify(this.store, presented);
    if (token !== this.token) {
      this.known = new Map();
      this.token = token;
    }
    const hit = this.known.get(presented);
    if (hit) return hit;
    const caller = await verify(this.store, presented);
    if (this.token === token && this.known.size < this.max) this.known.set(presented, caller);
    return caller;
  }
}

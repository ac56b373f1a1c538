// The customer's dashboard use-cases: signing up, in and out, belonging to accounts, and what a
// member may do there. Keys are made and revoked by the same functions as the CLI and the admin
// API (./admin.ts); this module adds who may call them.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyMode } from '../domain/api-keys.ts';
import { SIGN_UP_TEST_SHEETS } from '../domain/plans.ts';
import { Refusal, apiRefusal } from '../domain/errors.ts';
import { shownId } from '../domain/ids.ts';
import {
  displayName,
  INVITATION_DAYS,
  type Membership,
  newPassword,
  normalEmail,
  type Role,
  SESSION_DAYS,
  type User,
} from '../domain/users.ts';
import { sha256Hex } from '../lib/ids.ts';
import { hashPassword, verifyDecoy, verifyPassword } from '../lib/password.ts';
import type {
  Account,
  ApiKeyRecord,
  Invitation,
  Member,
  SessionGrant,
  TemplateRecord,
} from '../store/index.ts';
import { type AdminDeps, createKey, importTemplate, replaceTemplate, topUp } from './admin.ts';

const DAY_MS = 86_400_000;

/** An unguessable token (256 bits, base64url) and the SHA-256 the store keeps of it. */
function token(): { token: string; hash: string } {
  const t = randomBytes(32).toString('base64url');
  return { token: t, hash: tokenHash(t) };
}

export const tokenHash = (t: string) => sha256Hex(t);

/** The CSRF token of a session: derived from its token, so nothing more is stored. */
export const csrfToken = (sessionToken: string) =>
  Buffer.from(sha256Hex(`csrf:${sessionToken}`), 'hex').toString('base64url');

/** Whether `presented` is the session's CSRF token (constant time). */
export function csrfMatches(sessionToken: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(csrfToken(sessionToken));
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

function grant(now: Date): { token: string; session: SessionGrant } {
  const t = token();
  return {
    token: t.token,
    session: { tokenHash: t.hash, expiresAt: new Date(now.getTime() + SESSION_DAYS * DAY_MS) },
  };
}

export interface Signed {
  /** The session's token, for the cookie; never stored. */
  token: string;
  expiresAt: Date;
  user: User;
}

export async function signUp(
  d: AdminDeps,
  input: { email: unknown; password: unknown; name: unknown; accountName: unknown },
): Promise<Signed & { account: Account }> {
  const email = normalEmail(input.email);
  const password = newPassword(input.password);
  const name = displayName(input.name, 'name');
  const accountName = displayName(input.accountName, 'accountName');
  const now = d.now();
  const g = grant(now);
  const { user, account } = await d.store.users.signUp({
    email,
    name,
    passwordHash: await hashPassword(password),
    accountName,
    session: g.session,
    testSheets: SIGN_UP_TEST_SHEETS,
    now,
  });
  return { token: g.token, expiresAt: g.session.expiresAt, user, account };
}

const WRONG = 'the email or the password is wrong';

export async function signIn(d: AdminDeps, input: { email: unknown; password: unknown }): Promise<Signed> {
  const email = normalEmail(input.email);
  if (typeof input.password !== 'string' || input.password.length === 0)
    throw new Refusal('invalid', 'password must be given', { field: 'password' });
  const found = await d.store.users.byEmail(email);
  // An unknown address costs as long as a wrong password: the answer tells nothing either way.
  const ok = found
    ? await verifyPassword(found.passwordHash, input.password)
    : await verifyDecoy(input.password);
  if (!found || !ok) throw apiRefusal('UNAUTHORIZED', WRONG);
  const now = d.now();
  const g = grant(now);
  await d.store.users.startSession(found.user.id, g.session, now);
  return { token: g.token, expiresAt: g.session.expiresAt, user: found.user };
}

export interface Session {
  token: string;
  user: User;
  memberships: Membership[];
  expiresAt: string;
}

/** The session a cookie's token holds, with the user's accounts; null when there is none. */
export async function session(d: AdminDeps, sessionToken: string): Promise<Session | null> {
  const found = await d.store.users.sessionUser(tokenHash(sessionToken), d.now());
  if (!found) return null;
  return {
    token: sessionToken,
    user: found.user,
    memberships: await d.store.users.memberships(found.user.id),
    expiresAt: found.expiresAt,
  };
}

export const signOut = (d: AdminDeps, sessionToken: string) =>
  d.store.users.endSession(tokenHash(sessionToken));

export const signOutEverywhere = (d: AdminDeps, s: Session) => d.store.users.endSessions(s.user.id);

/**
 * The user's membership of the account; an account they do not belong to does not exist for
 * them (404), and an action for owners only is 403.
 */
export function membership(s: Session, accountId: string, role?: Role): Membership {
  const m = s.memberships.find((x) => x.accountId === accountId);
  if (!m) throw new Refusal('missing', `account ${shownId(accountId)} does not exist`);
  if (role === 'owner' && m.role !== 'owner')
    throw apiRefusal('FORBIDDEN', `only an owner of ${m.accountName} may do this; you are a member`);
  return m;
}

export async function listKeys(
  d: AdminDeps,
  s: Session,
  accountId: string,
  mode: KeyMode,
): Promise<{ data: ApiKeyRecord[]; active: number; max: number }> {
  membership(s, accountId);
  const all = await d.store.accounts.listKeys(accountId);
  return {
    data: all.filter((k) => k.mode === mode),
    active: all.filter((k) => k.revokedAt === null).length,
    max: d.config.keysMax,
  };
}

export function newKey(
  d: AdminDeps,
  s: Session,
  accountId: string,
  input: { mode: KeyMode; name: string },
): Promise<{ key: string; record: ApiKeyRecord }> {
  membership(s, accountId);
  return createKey(d, { account: accountId, mode: input.mode, name: input.name });
}

export async function revokeAccountKey(
  d: AdminDeps,
  s: Session,
  accountId: string,
  keyId: string,
): Promise<ApiKeyRecord> {
  membership(s, accountId);
  const key = await d.store.accounts.revokeKey(keyId, d.now(), accountId);
  if (!key) throw new Refusal('missing', `key ${shownId(keyId)} does not exist`);
  return key;
}

export async function members(
  d: AdminDeps,
  s: Session,
  accountId: string,
): Promise<{ members: Member[]; invitations: Invitation[] }> {
  const m = membership(s, accountId);
  const [all, invitations] = await Promise.all([
    d.store.users.members(accountId),
    m.role === 'owner' ? d.store.users.pendingInvitations(accountId, d.now()) : Promise.resolve([]),
  ]);
  return { members: all, invitations };
}

/** An owner makes a member an owner, or an owner a member (never the account's last owner). */
export function setMemberRole(
  d: AdminDeps,
  s: Session,
  accountId: string,
  userId: string,
  role: Role,
): Promise<Member | null> {
  membership(s, accountId, 'owner');
  return d.store.users.changeMember(accountId, userId, role);
}

/** An owner removes a member; anyone may leave an account (never its last owner). */
export async function removeMember(
  d: AdminDeps,
  s: Session,
  accountId: string,
  userId: string,
): Promise<void> {
  membership(s, accountId, userId === s.user.id ? undefined : 'owner');
  await d.store.users.changeMember(accountId, userId, null);
}

/** An owner invites someone by address; the link's token is returned once and never stored. */
export async function invite(
  d: AdminDeps,
  s: Session,
  accountId: string,
  input: { email: unknown; role: Role },
): Promise<{ invitation: Invitation; token: string }> {
  membership(s, accountId, 'owner');
  const email = normalEmail(input.email);
  const now = d.now();
  const t = token();
  const invitation = await d.store.users.invite({
    accountId,
    email,
    role: input.role,
    tokenHash: t.hash,
    invitedBy: s.user.id,
    now,
    expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
  });
  return { invitation, token: t.token };
}

export function revokeInvitation(
  d: AdminDeps,
  s: Session,
  accountId: string,
  id: string,
): Promise<Invitation> {
  membership(s, accountId, 'owner');
  return d.store.users.revokeInvitation(accountId, id, d.now());
}

const GONE = 'this invitation is not valid: it was used, withdrawn or is older than 7 days';

/** What an invitation link opens: the account and the address, and whether that address has a user. */
export async function lookInvitation(
  d: AdminDeps,
  inviteToken: string,
): Promise<{ accountName: string; email: string; role: Role; hasUser: boolean }> {
  const inv = await d.store.users.openInvitation(tokenHash(inviteToken), d.now());
  if (!inv) throw new Refusal('missing', GONE);
  return {
    accountName: inv.accountName,
    email: inv.email,
    role: inv.role,
    hasUser: (await d.store.users.byEmail(inv.email)) !== null,
  };
}

/**
 * Accepts an invitation: signed in as its address, or as a new user of that address (a name and
 * a password), or with that user's password. A session starts either way.
 */
export async function acceptInvitation(
  d: AdminDeps,
  input: { token: unknown; current: Session | null; name?: unknown; password?: unknown },
): Promise<Signed> {
  if (typeof input.token !== 'string' || input.token.length === 0)
    throw new Refusal('invalid', 'token must be the one of the invitation link', { field: 'token' });
  const now = d.now();
  const hash = tokenHash(input.token);
  const inv = await d.store.users.openInvitation(hash, now);
  if (!inv) throw new Refusal('missing', GONE);
  let as: { userId: string } | { name: string; passwordHash: string };
  if (input.current) as = { userId: input.current.user.id };
  else {
    const existing = await d.store.users.byEmail(inv.email);
    if (existing) {
      if (
        typeof input.password !== 'string' ||
        !(await verifyPassword(existing.passwordHash, input.password))
      )
        throw apiRefusal('UNAUTHORIZED', `the password of ${inv.email} is wrong`);
      as = { userId: existing.user.id };
    } else
      as = {
        name: displayName(input.name, 'name'),
        passwordHash: await hashPassword(newPassword(input.password)),
      };
  }
  const g = grant(now);
  const done = await d.store.users.accept({ tokenHash: hash, as, session: g.session, now });
  if (!done) throw new Refusal('missing', GONE);
  return { token: g.token, expiresAt: g.session.expiresAt, user: done.user };
}

/** Test sheets for the account (test mode only: live sheets are bought, not granted here). */
export function testTopUp(d: AdminDeps, s: Session, accountId: string, sheets: number) {
  membership(s, accountId);
  return topUp(d, { account: accountId, sheets, mode: 'test' });
}

/** A template imported as a new template of the account, in the mode shown. */
export function newTemplate(
  d: AdminDeps,
  s: Session,
  accountId: string,
  input: { mode: KeyMode; template: unknown },
): Promise<TemplateRecord> {
  membership(s, accountId);
  return importTemplate(d, {
    account: accountId,
    mode: input.mode,
    template: input.template,
    source: 'the template',
  });
}

/** A template stored over one of the account's (its revision goes up). */
export function saveTemplate(
  d: AdminDeps,
  s: Session,
  accountId: string,
  input: { id: string; mode: KeyMode; template: unknown },
): Promise<TemplateRecord> {
  membership(s, accountId);
  return replaceTemplate(d, { account: accountId, ...input, source: 'the template' });
}

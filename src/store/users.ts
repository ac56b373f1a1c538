// Dashboard people: users, their memberships of accounts, sessions and invitations. Secrets are
// never stored: a password as its argon2id hash (made by the caller), a session or invitation
// token as its SHA-256. Each flow that touches several tables (sign-up, accepting an invitation)
// is one transaction.
import { Refusal } from '../domain/errors.ts';
import { shownId } from '../domain/ids.ts';
import type { Membership, Role, User } from '../domain/users.ts';
import { newId } from '../lib/ids.ts';
import type { Account, AccountRepo } from './accounts.ts';
import type { BillingRepo } from './billing.ts';
import { type Db, isUniqueViolation, type Tx } from './database.ts';
import type { InvitationsTable, UsersTable } from './schema.ts';

export interface SessionGrant {
  /** SHA-256 (hex) of the cookie's token. */
  tokenHash: string;
  expiresAt: Date;
}

export interface Invitation {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
}

export interface Member extends User {
  role: Role;
  joinedAt: string;
}

const toUser = (r: Pick<UsersTable, 'id' | 'email' | 'name' | 'created_at'>): User => ({
  id: r.id,
  email: r.email,
  name: r.name,
  createdAt: r.created_at,
});

/** The members of an account with their user's fields. */
const memberRows = (db: Tx | Db['kysely'], accountId: string) =>
  db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.email', 'users.name', 'users.created_at', 'memberships.role'])
    .select('memberships.created_at as joined_at')
    .where('memberships.account_id', '=', accountId);

const toMember = (
  r: Pick<UsersTable, 'id' | 'email' | 'name' | 'created_at'> & { role: string; joined_at: string },
): Member => ({ ...toUser(r), role: r.role as Role, joinedAt: r.joined_at });

const toInvitation = (r: InvitationsTable): Invitation => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  role: r.role as Role,
  invitedBy: r.invited_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  acceptedAt: r.accepted_at,
  revokedAt: r.revoked_at,
});

const taken = (email: string) =>
  new Refusal('invalid', `email ${JSON.stringify(email)} already has a user; sign in instead`, {
    field: 'email',
  });

export class UserRepo {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountRepo,
    private readonly billing: BillingRepo,
  ) {}

  private async insertUser(
    tx: Tx,
    input: { email: string; name: string; passwordHash: string; now: Date },
  ): Promise<User> {
    const at = input.now.toISOString();
    const row: UsersTable = {
      id: newId('usr'),
      email: input.email,
      name: input.name,
      password_hash: input.passwordHash,
      created_at: at,
      updated_at: at,
    };
    try {
      await tx.insertInto('users').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(input.email);
      throw err;
    }
    return toUser(row);
  }

  private async insertSession(tx: Tx, userId: string, grant: SessionGrant, now: Date): Promise<void> {
    await tx
      .insertInto('sessions')
      .values({
        token_hash: grant.tokenHash,
        user_id: userId,
        created_at: now.toISOString(),
        expires_at: grant.expiresAt.toISOString(),
      })
      .execute();
  }

  /** A new user owning a new account, signed in: all or nothing. */
  async signUp(input: {
    email: string;
    name: string;
    passwordHash: string;
    accountName: string;
    session: SessionGrant;
    /** Test sheets the new account starts with (its first test calls). */
    testSheets: number;
    now: Date;
  }): Promise<{ user: User; account: Account }> {
    return this.db.write(async (tx) => {
      const user = await this.insertUser(tx, input);
      const account = await this.accounts.insert(tx, { name: input.accountName, now: input.now });
      if (input.testSheets > 0)
        await this.billing.credit(
          tx,
          { accountId: account.id, mode: 'test' },
          input.testSheets,
          input.now,
          'sign-up test sheets',
        );
      await tx
        .insertInto('memberships')
        .values({
          account_id: account.id,
          user_id: user.id,
          role: 'owner',
          created_at: input.now.toISOString(),
        })
        .execute();
      await this.insertSession(tx, user.id, input.session, input.now);
      return { user, account };
    });
  }

  /** A new user who belongs to an existing account (the demo's, an operator's): all or nothing. */
  async addMember(input: {
    email: string;
    name: string;
    passwordHash: string;
    accountId: string;
    role: Role;
    now: Date;
  }): Promise<User> {
    return this.db.write(async (tx) => {
      const user = await this.insertUser(tx, input);
      await tx
        .insertInto('memberships')
        .values({
          account_id: input.accountId,
          user_id: user.id,
          role: input.role,
          created_at: input.now.toISOString(),
        })
        .execute();
      return user;
    });
  }

  /** A user with the hash to check a password against; null for an unknown address. */
  async byEmail(email: string): Promise<{ user: User; passwordHash: string } | null> {
    const row = await this.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  async startSession(userId: string, grant: SessionGrant, now: Date): Promise<void> {
    await this.db.write((tx) => this.insertSession(tx, userId, grant, now));
  }

  /** The user of a session that has not ended or expired; null otherwise. */
  async sessionUser(tokenHash: string, now: Date): Promise<{ user: User; expiresAt: string } | null> {
    const row = await this.db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id', 'users.email', 'users.name', 'users.created_at', 'sessions.expires_at'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return row ? { user: toUser(row), expiresAt: row.expires_at } : null;
  }

  async endSession(tokenHash: string): Promise<void> {
    await this.db.write((tx) => tx.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute());
  }

  /** Ends every session of the user (signing out everywhere); returns how many there were. */
  async endSessions(userId: string): Promise<number> {
    return this.db.write(async (tx) => {
      const r = await tx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(r.numDeletedRows);
    });
  }

  /** The accounts the user belongs to, oldest membership first. */
  async memberships(userId: string): Promise<Membership[]> {
    const rows = await this.db.kysely
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
      .select(['memberships.account_id', 'accounts.name', 'memberships.role', 'memberships.created_at'])
      .where('memberships.user_id', '=', userId)
      .orderBy('memberships.created_at', 'asc')
      .execute();
    return rows.map((r) => ({
      accountId: r.account_id,
      accountName: r.name,
      role: r.role as Role,
      createdAt: r.created_at,
    }));
  }

  async members(accountId: string): Promise<Member[]> {
    const rows = await memberRows(this.db.kysely, accountId)
      .orderBy('memberships.created_at', 'asc')
      .execute();
    return rows.map(toMember);
  }

  async invite(input: {
    accountId: string;
    email: string;
    role: Role;
    tokenHash: string;
    invitedBy: string;
    now: Date;
    expiresAt: Date;
  }): Promise<Invitation> {
    const row: InvitationsTable = {
      id: newId('inv'),
      account_id: input.accountId,
      email: input.email,
      role: input.role,
      token_hash: input.tokenHash,
      invited_by: input.invitedBy,
      created_at: input.now.toISOString(),
      expires_at: input.expiresAt.toISOString(),
      accepted_at: null,
      revoked_at: null,
    };
    await this.db.write(async (tx) => {
      const member = await tx
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select('users.id')
        .where('memberships.account_id', '=', input.accountId)
        .where('users.email', '=', input.email)
        .executeTakeFirst();
      if (member)
        throw new Refusal('invalid', `${input.email} is already a member of this account`, {
          field: 'email',
        });
      await tx.insertInto('invitations').values(row).execute();
    });
    return toInvitation(row);
  }

  /** Invitations of the account not yet accepted, revoked or expired, newest first. */
  async pendingInvitations(accountId: string, now: Date): Promise<Invitation[]> {
    const rows = await this.db.kysely
      .selectFrom('invitations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toInvitation);
  }

  async revokeInvitation(accountId: string, id: string, now: Date): Promise<Invitation> {
    return this.db.write(async (tx) => {
      await tx
        .updateTable('invitations')
        .set({ revoked_at: now.toISOString() })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      const row = await tx
        .selectFrom('invitations')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (!row) throw new Refusal('missing', `invitation ${shownId(id)} does not exist`);
      return toInvitation(row);
    });
  }

  /** The invitation a token opens, while it can still be accepted; null otherwise. */
  async openInvitation(tokenHash: string, now: Date): Promise<(Invitation & { accountName: string }) | null> {
    const row = await this.db.kysely
      .selectFrom('invitations')
      .innerJoin('accounts', 'accounts.id', 'invitations.account_id')
      .selectAll('invitations')
      .select('accounts.name as account_name')
      .where('token_hash', '=', tokenHash)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return row ? { ...toInvitation(row), accountName: row.account_name } : null;
  }

  /**
   * Accepts an invitation, once: as the signed-in user whose address it was sent to, or as a new
   * user with that address; either way a session starts. Null when the token no longer opens it.
   */
  async accept(input: {
    tokenHash: string;
    as: { userId: string } | { name: string; passwordHash: string };
    session: SessionGrant;
    now: Date;
  }): Promise<{ user: User; invitation: Invitation } | null> {
    return this.db.write(async (tx) => {
      const row = await this.db
        .forUpdate(
          tx
            .selectFrom('invitations')
            .selectAll()
            .where('token_hash', '=', input.tokenHash)
            .where('accepted_at', 'is', null)
            .where('revoked_at', 'is', null)
            .where('expires_at', '>', input.now.toISOString()),
        )
        .executeTakeFirst();
      if (!row) return null;
      let user: User;
      if ('userId' in input.as) {
        const found = await tx
          .selectFrom('users')
          .selectAll()
          .where('id', '=', input.as.userId)
          .executeTakeFirst();
        if (!found) return null;
        if (found.email !== row.email)
          throw new Refusal(
            'invalid',
            `this invitation was sent to ${row.email}; you are signed in as ${found.email}`,
            { field: 'token' },
          );
        user = toUser(found);
      } else {
        user = await this.insertUser(tx, { email: row.email, ...input.as, now: input.now });
      }
      const at = input.now.toISOString();
      await tx
        .insertInto('memberships')
        .values({ account_id: row.account_id, user_id: user.id, role: row.role, created_at: at })
        .onConflict((oc) => oc.columns(['account_id', 'user_id']).doNothing())
        .execute();
      await tx.updateTable('invitations').set({ accepted_at: at }).where('id', '=', row.id).execute();
      await this.insertSession(tx, user.id, input.session, input.now);
      return { user, invitation: { ...toInvitation(row), acceptedAt: at } };
    });
  }
  /**
   * A member's role changed, or the member removed (`role: null`). Decided under the account's
   * row lock, so two owners demoting or removing each other at once still leave one owner: a
   * change that would leave the account without an owner is refused.
   */
  async changeMember(accountId: string, userId: string, role: Role | null): Promise<Member | null> {
    return this.db.write(async (tx) => {
      await this.db
        .forUpdate(tx.selectFrom('accounts').select('id').where('id', '=', accountId))
        .executeTakeFirst();
      const rows = await tx
        .selectFrom('memberships')
        .select(['user_id', 'role'])
        .where('account_id', '=', accountId)
        .execute();
      const current = rows.find((r) => r.user_id === userId);
      if (!current) throw new Refusal('missing', `user ${shownId(userId)} is not a member of this account`);
      const owners = rows.filter((r) => r.role === 'owner').length;
      if (current.role === 'owner' && role !== 'owner' && owners === 1)
        throw new Refusal(
          'invalid',
          `the account would be left without an owner: make another member owner first`,
          { field: role === null ? 'user' : 'role' },
        );
      if (role === null) {
        await tx
          .deleteFrom('memberships')
          .where('account_id', '=', accountId)
          .where('user_id', '=', userId)
          .execute();
        return null;
      }
      await tx
        .updateTable('memberships')
        .set({ role })
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .execute();
      return toMember(
        await memberRows(tx, accountId).where('memberships.user_id', '=', userId).executeTakeFirstOrThrow(),
      );
    });
  }
}

// Opens the system of record: SQLite (embedded, default) or PostgreSQL (farm), one Kysely
// schema and one set of migrations for both. Write transactions take the write lock up front:
// BEGIN IMMEDIATE on SQLite (Kysely cannot emit it), row locks (FOR UPDATE) on PostgreSQL.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, type Migration, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import * as m0001 from './migrations/0001-initial.ts';
import * as m0002 from './migrations/0002-bundled-fonts.ts';
import * as m0003 from './migrations/0003-arabic-font.ts';
import * as m0004 from './migrations/0004-admitted-by.ts';
import * as m0005 from './migrations/0005-render-spec.ts';
import * as m0006 from './migrations/0006-typeset-scripts.ts';
import * as m0007 from './migrations/0007-output-digest.ts';
import * as m0008 from './migrations/0008-idempotency.ts';
import * as m0009 from './migrations/0009-job-metadata.ts';
import * as m0010 from './migrations/0010-webhooks.ts';
import * as m0011 from './migrations/0011-job-request.ts';
import * as m0012 from './migrations/0012-dashboard-users.ts';
import * as m0013 from './migrations/0013-batches.ts';
import * as m0014 from './migrations/0014-batch-merge.ts';
import * as m0015 from './migrations/0015-hands.ts';
import * as m0016 from './migrations/0016-plan-requests.ts';
import { unavailable } from '../domain/errors.ts';
import type { Database } from './schema.ts';

export type DatabaseTarget = { dialect: 'postgres'; url: string } | { dialect: 'sqlite'; file: string };
export type Tx = Kysely<Database>;

const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-bundled-fonts': m0002,
  '0003-arabic-font': m0003,
  '0004-admitted-by': m0004,
  '0005-render-spec': m0005,
  '0006-typeset-scripts': m0006,
  '0007-output-digest': m0007,
  '0008-idempotency': m0008,
  '0009-job-metadata': m0009,
  '0010-webhooks': m0010,
  '0011-job-request': m0011,
  '0012-dashboard-users': m0012,
  '0013-batches': m0013,
  '0014-batch-merge': m0014,
  '0015-hands': m0015,
  '0016-plan-requests': m0016,
};

/**
 * One SQLite connection per file per process: the driver (libsql) waits for a busy lock
 * synchronously, so a second connection in the same thread would block the event loop that
 * the first one needs to commit. Opening the same file again shares the connection.
 */
const sqliteShared = new Map<string, { db: Db; refs: number }>();

/** How stale a read cache may be on SQLite to another process's commit (docs/decisions.md). */
export const DATA_VERSION_MS = 20;

export class Db {
  /** Writes committed through this Db (its own connection's changes). */
  private localWrites = 0;
  private readonly dataVersion: (() => unknown) | null;
  /** The last token handed out, reused while nothing changed (it is asked for on every request). */
  private lastVersion: { data: unknown; writes: number; value: { token: string; exact: boolean } } | null =
    null;

  private constructor(
    readonly kysely: Kysely<Database>,
    readonly dialect: DatabaseTarget['dialect'],
    private readonly sharedKey?: string,
    sqlite?: import('libsql').Database,
  ) {
    // PRAGMA data_version changes when another connection (another process) commits.
    // Read at most once every DATA_VERSION_MS: a commit elsewhere (an admin command) is seen
    // within that, and a busy server does not pay a statement (and two file-lock calls) per
    // cache lookup.
    // Read raw: the driver's get() adds a `_metadata` key to a row object.
    const stmt = sqlite?.prepare('PRAGMA data_version').raw();
    let value: unknown = null;
    let readAt = Number.NEGATIVE_INFINITY;
    this.dataVersion = stmt
      ? () => {
          const now = performance.now();
          if (now - readAt >= DATA_VERSION_MS) {
            value = (stmt.get() as unknown[])[0];
            readAt = now;
          }
          return value;
        }
      : null;
  }

  /**
   * A token that changes whenever committed data may have changed, for read caches: this
   * process's own commits always change it; on SQLite so do other processes' (PRAGMA
   * data_version), which makes it `exact`. PostgreSQL cannot tell cheaply what other processes
   * wrote, so caches there also bound an entry's age.
   */
  version(): { token: string; exact: boolean } {
    const data = this.dataVersion?.() ?? null;
    const v = this.lastVersion;
    if (v && v.data === data && v.writes === this.localWrites) return v.value;
    const value = { token: `${data}:${this.localWrites}`, exact: this.dataVersion !== null };
    this.lastVersion = { data, writes: this.localWrites, value };
    return value;
  }

  static async open(target: DatabaseTarget): Promise<Db> {
    if (target.dialect === 'postgres') {
      // Loaded only for PostgreSQL: an embedded process never holds the driver.
      const { default: pg } = await import('pg');
      const pool = new pg.Pool({ connectionString: target.url, max: 10 });
      // An idle connection the server drops (restart, failover, admin termination) must not crash
      // the process: the pool discards it and the next query opens a fresh one.
      pool.on('error', () => {});
      return new Db(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
    }
    const key = target.file === ':memory:' ? undefined : resolve(target.file);
    const shared = key ? sqliteShared.get(key) : undefined;
    if (shared) {
      shared.refs++;
      return shared.db;
    }
    if (key) mkdirSync(dirname(key), { recursive: true });
    // Loaded only for SQLite: a farm process never holds the native module.
    const { default: SqliteDatabase } = await import('libsql');
    const sqlite = new SqliteDatabase(target.file, { timeout: 10_000 });
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 10000');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    const db = new Db(
      new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
      'sqlite',
      key,
      sqlite,
    );
    if (key) sqliteShared.set(key, { db, refs: 1 });
    return db;
  }

  /** Checks the server answers (PostgreSQL); a clear error names the target otherwise. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.kysely);
  }

  async migrate(): Promise<string[]> {
    const migrator = new Migrator({
      db: this.kysely,
      provider: { getMigrations: async () => MIGRATIONS },
      migrationTableName: 'schema_migrations',
      migrationLockTableName: 'schema_migrations_lock',
      // Names are "0001-…": compared by code unit. Kysely's default, localeCompare, pages in ICU.
      nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }

  /**
   * Runs `fn` in a write transaction holding the write lock from its first statement. A
   * transaction the database cannot write now (no space left, the server unreachable) is rolled
   * back and said as an `unavailable` refusal: nothing changed, the same write may succeed later.
   */
  async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.writeOnce(fn);
    } catch (err) {
      if (storeFault(err)) throw unavailable('the database cannot write now', err);
      throw err;
    } finally {
      this.localWrites++;
    }
  }

  private async writeOnce<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') return this.kysely.transaction().execute(fn);
    // The SQLite driver hands out its one connection under a mutex: the callback is exclusive
    // in this process, and BEGIN IMMEDIATE makes it exclusive against other processes.
    return this.kysely.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await fn(conn);
        await sql`commit`.execute(conn);
        return result;
      } catch (err) {
        // A failed write may have ended the transaction already (SQLITE_FULL rolls it back).
        await sql`rollback`.execute(conn).catch(() => {});
        throw err;
      }
    });
  }

  /** SELECT … FOR UPDATE on PostgreSQL; on SQLite the transaction already holds the lock. */
  forUpdate<Q extends { forUpdate(): Q }>(query: Q): Q {
    return this.dialect === 'postgres' ? query.forUpdate() : query;
  }

  async close(): Promise<void> {
    const shared = this.sharedKey ? sqliteShared.get(this.sharedKey) : undefined;
    if (shared && --shared.refs > 0) return;
    if (this.sharedKey) sqliteShared.delete(this.sharedKey);
    await this.kysely.destroy();
  }
}

/** `count(*)` and `sum()` come back as strings from PostgreSQL and numbers from SQLite. */
export function num(value: unknown): number {
  if (value === null || value === undefined) return 0;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) throw new Error(`not a number from the database: ${String(value)}`);
  return n;
}

/**
 * Faults of the database's storage or connection, not of the statement: SQLite's full disk,
 * I/O errors and read-only file; PostgreSQL's insufficient resources (class 53: disk full, out
 * of memory, too many connections), I/O error, shutdown, connection failures, and a server the
 * client cannot reach.
 */
export function storeFault(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return (
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('53') ||
    code === '58030' ||
    /^57P0[1-3]$/.test(code) ||
    code.startsWith('08') ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOSPC'].includes(code)
  );
}

/** Unique-constraint violations of either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

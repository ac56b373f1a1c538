// Store factories for the contract suite: a fresh SQLite file, or a fresh PostgreSQL database
// dropped after the run. Each factory can open several stores on the same database, to prove
// the locking holds across connections (and, for SQLite, across processes' BEGIN IMMEDIATE).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_PLANS } from '../../src/domain/plans.ts';
import { Store } from '../../src/store/index.ts';
import type { DatabaseTarget } from '../../src/store/database.ts';
import { PG_ADMIN_URL } from './services.ts';

export interface StoreFactory {
  name: string;
  /** Opens another store on the same database. */
  open(): Promise<Store>;
  target: DatabaseTarget;
  cleanup(): Promise<void>;
}

export async function sqliteFactory(): Promise<StoreFactory> {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-test-'));
  const target: DatabaseTarget = { dialect: 'sqlite', file: join(dir, 'store.db') };
  const opened: Store[] = [];
  return {
    name: 'sqlite',
    target,
    async open() {
      const s = await Store.open(target, DEFAULT_PLANS);
      opened.push(s);
      return s;
    },
    async cleanup() {
      for (const s of opened) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresFactory(): Promise<StoreFactory> {
  const name = `scriptorium_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const target: DatabaseTarget = { dialect: 'postgres', url: url.toString() };
  const opened: Store[] = [];
  return {
    name: 'postgres',
    target,
    async open() {
      const s = await Store.open(target, DEFAULT_PLANS);
      opened.push(s);
      return s;
    },
    async cleanup() {
      for (const s of opened) await s.close();
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

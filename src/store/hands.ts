// Hands: personal fonts of one's own handwriting as the dashboard edits them (docs/personal-hands.md).
// A hand holds its pictures (blob keys; the pages, and pages written again for some drawings),
// its edits and the personal font its last build made; its pictures live in blobs.
import { Refusal } from '../domain/errors.ts';
import type { HandEdits } from '../foundry/index.ts';
import type { Db, Tx } from './database.ts';
import type { HandsTable } from './schema.ts';

/** A picture of a filled page: where it is kept and what it showed. */
export interface HandScan {
  key: string;
  type: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  bytes: number;
  /** Which page of the sheet it is. */
  page: number;
  /** A page written again for these drawings only (`a/2`). */
  redo?: string[];
}

export interface HandRecord {
  id: string;
  accountId: string;
  name: string;
  sheet: string;
  scans: HandScan[];
  edits: HandEdits;
  fontId: string | null;
  builtAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function toHand(r: HandsTable): HandRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    sheet: r.sheet,
    scans: JSON.parse(r.scans) as HandScan[],
    edits: JSON.parse(r.edits) as HandEdits,
    fontId: r.font_id,
    builtAt: r.built_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** One of the account's hands. */
const mine = (tx: Tx, accountId: string, id: string) =>
  tx
    .selectFrom('hands')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();

export class HandRepo {
  constructor(private readonly db: Db) {}

  async create(input: {
    id: string;
    accountId: string;
    name: string;
    sheet: string;
    scans: HandScan[];
    now: Date;
  }): Promise<HandRecord> {
    const at = input.now.toISOString();
    const row: HandsTable = {
      id: input.id,
      account_id: input.accountId,
      name: input.name,
      sheet: input.sheet,
      scans: JSON.stringify(input.scans),
      edits: '{}',
      font_id: null,
      built_at: null,
      created_at: at,
      updated_at: at,
    };
    await this.db.write((tx) => tx.insertInto('hands').values(row).execute());
    return toHand(row);
  }

  async get(accountId: string, id: string): Promise<HandRecord | null> {
    const row = await mine(this.db.kysely, accountId, id);
    return row ? toHand(row) : null;
  }

  /** The account's hands, newest first. */
  async list(accountId: string): Promise<HandRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('hands')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toHand);
  }

  /** Changes a hand of the account; null when it has none of that id. */
  async update(
    accountId: string,
    id: string,
    change: {
      name?: string;
      scans?: HandScan[];
      edits?: HandEdits;
      fontId?: string | null;
      builtAt?: Date;
      now: Date;
    },
  ): Promise<HandRecord | null> {
    return this.db.write(async (tx) => {
      await tx
        .updateTable('hands')
        .set({
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.scans ? { scans: JSON.stringify(change.scans) } : {}),
          ...(change.edits ? { edits: JSON.stringify(change.edits) } : {}),
          ...(change.fontId !== undefined ? { font_id: change.fontId } : {}),
          ...(change.builtAt ? { built_at: change.builtAt.toISOString() } : {}),
          updated_at: change.now.toISOString(),
        })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .execute();
      const row = await mine(tx, accountId, id);
      return row ? toHand(row) : null;
    });
  }

  /**
   * Adds a picture to a hand's list as the list stands in the store, in one transaction (a row
   * lock on PostgreSQL), so that pictures given at once never overwrite one another: with
   * `replacesPage`, the picture of the same page (not a page written again for some drawings)
   * leaves the list. Refused when the hand would keep more than `most`. The hand as it now is and
   * the pictures it let go (their blobs are the caller's to delete), or null when it has none.
   */
  async addScan(
    accountId: string,
    id: string,
    scan: HandScan,
    opts: { replacesPage: boolean; most: number; now: Date },
  ): Promise<{ hand: HandRecord; dropped: HandScan[] } | null> {
    return this.db.write(async (tx) => {
      const row = await this.db
        .forUpdate(
          tx.selectFrom('hands').selectAll().where('id', '=', id).where('account_id', '=', accountId),
        )
        .executeTakeFirst();
      if (!row) return null;
      const scans = JSON.parse(row.scans) as HandScan[];
      const dropped = opts.replacesPage ? scans.filter((s) => !s.redo && s.page === scan.page) : [];
      const next = [...scans.filter((s) => !dropped.includes(s)), scan];
      if (next.length > opts.most)
        throw new Refusal('invalid', `a hand keeps at most ${opts.most} pictures, it has ${scans.length}`, {
          field: 'body',
        });
      const updatedAt = opts.now.toISOString();
      await tx
        .updateTable('hands')
        .set({ scans: JSON.stringify(next), updated_at: updatedAt })
        .where('id', '=', id)
        .execute();
      return { hand: toHand({ ...row, scans: JSON.stringify(next), updated_at: updatedAt }), dropped };
    });
  }

  /** Removes a hand of the account: the record it had, or null. */
  async remove(accountId: string, id: string): Promise<HandRecord | null> {
    return this.db.write(async (tx) => {
      const row = await mine(tx, accountId, id);
      if (!row) return null;
      await tx.deleteFrom('hands').where('id', '=', id).execute();
      return toHand(row);
    });
  }
}

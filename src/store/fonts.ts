// Font metadata: bundled shared fonts (registered by migration), fonts an operator adds to
// everyone, and personal fonts of one account. The files themselves live in blobs or packages.
import { type FontQuota, overFontQuota } from '../domain/fonts.ts';
import type { FontInfo } from '../render/index.ts';
import { newId } from '../lib/ids.ts';
import { type Db, num, type Tx } from './database.ts';
import { type Page, pageOf } from './paging.ts';
import type { FontsTable } from './schema.ts';

export interface FontRecord {
  id: string;
  accountId: string | null;
  name: string;
  family: string;
  premium: boolean;
  license: string;
  scripts: string[];
  glyphCount: number;
  codepoints: number;
  /** Shipped with the service, a file uploaded, or built from a hand (docs/personal-hands.md). */
  source: 'bundled' | 'upload' | 'hand';
  /** A module specifier (bundled) or a blob key (upload, hand). Never shown to API clients. */
  location: string;
  sha256: string;
  bytes: number;
  createdAt: string;
}

function toFont(r: FontsTable): FontRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    family: r.family,
    premium: num(r.premium) === 1,
    license: r.license,
    scripts: JSON.parse(r.scripts) as string[],
    glyphCount: num(r.glyph_count),
    codepoints: num(r.codepoints),
    source: r.source as FontRecord['source'],
    location: r.location,
    sha256: r.sha256,
    bytes: num(r.bytes),
    createdAt: r.created_at,
  };
}

/** One of the account's own fonts (never a shared one). */
const personal = (tx: Tx, accountId: string, id: string) =>
  tx
    .selectFrom('fonts')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();

/** The personal fonts of an account: how many, and their bytes together. */
async function personalUsage(tx: Tx, accountId: string): Promise<{ count: number; bytes: number }> {
  const r = await tx
    .selectFrom('fonts')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('bytes').as('total')])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return { count: num(r?.n ?? 0), bytes: num(r?.total ?? 0) };
}

export class FontRepo {
  constructor(private readonly db: Db) {}

  /** The personal fonts of an account: how many, and their bytes together. */
  personalUsage(accountId: string): Promise<{ count: number; bytes: number }> {
    return personalUsage(this.db.kysely, accountId);
  }

  async add(input: {
    id?: string;
    accountId: string | null;
    name: string;
    premium: boolean;
    license: string;
    source?: 'upload' | 'hand';
    info: Pick<FontInfo, 'family' | 'scripts' | 'glyphCount' | 'codepoints'>;
    location: string;
    sha256: string;
    bytes: number;
    now: Date;
    /** A personal font: added only while the account's quota has room for it (decided under its row lock). */
    quota?: FontQuota;
  }): Promise<FontRecord> {
    const row: FontsTable = {
      id: input.id ?? newId('font'),
      account_id: input.accountId,
      name: input.name,
      family: input.info.family,
      premium: input.premium ? 1 : 0,
      license: input.license,
      scripts: JSON.stringify(input.info.scripts),
      glyph_count: input.info.glyphCount,
      codepoints: input.info.codepoints,
      source: input.source ?? 'upload',
      location: input.location,
      sha256: input.sha256,
      bytes: input.bytes,
      created_at: input.now.toISOString(),
    };
    const { quota, accountId } = input;
    await this.db.write(async (tx) => {
      if (quota && accountId) {
        await this.db
          .forUpdate(tx.selectFrom('accounts').select('id').where('id', '=', accountId))
          .executeTakeFirstOrThrow();
        const over = overFontQuota(await personalUsage(tx, accountId), input.bytes, quota);
        if (over) throw over;
      }
      await tx.insertInto('fonts').values(row).execute();
    });
    return toFont(row);
  }

  /** A font the account may use: shared, or its own. Another account's font is invisible. */
  async getVisible(accountId: string, id: string): Promise<FontRecord | null> {
    const row = await this.db.kysely
      .selectFrom('fonts')
      .selectAll()
      .where('id', '=', id)
      .where((eb) => eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)]))
      .executeTakeFirst();
    return row ? toFont(row) : null;
  }

  async listVisible(accountId: string | null): Promise<FontRecord[]> {
    let q = this.db.kysely.selectFrom('fonts').selectAll();
    q = accountId
      ? q.where((eb) => eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)]))
      : q.where('account_id', 'is', null);
    const rows = await q.orderBy('account_id').orderBy('name').execute();
    return rows.map(toFont);
  }

  /** Shared fonts and the account's own, newest first, one page at a time. */
  async pageVisible(
    accountId: string,
    opts: { limit: number; cursor?: string | undefined },
  ): Promise<Page<FontRecord>> {
    const q = this.db.kysely
      .selectFrom('fonts')
      .selectAll()
      .where((eb) => eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)]));
    return pageOf(q, opts, toFont);
  }
  /** Renames one of the account's own fonts; null when it has none of that id. */
  async renamePersonal(accountId: string, id: string, name: string): Promise<FontRecord | null> {
    return this.db.write(async (tx) => {
      await tx
        .updateTable('fonts')
        .set({ name })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .execute();
      const row = await personal(tx, accountId, id);
      return row ? toFont(row) : null;
    });
  }

  /**
   * Gives one of the account's own fonts another file (a hand built again): the record before and
   * after, or null when it has none of that id. The quota counts the new file in place of the old.
   */
  async replaceFile(
    accountId: string,
    id: string,
    file: {
      info: Pick<FontInfo, 'family' | 'scripts' | 'glyphCount' | 'codepoints'>;
      location: string;
      sha256: string;
      bytes: number;
      quota: FontQuota;
    },
  ): Promise<{ before: FontRecord; after: FontRecord } | null> {
    return this.db.write(async (tx) => {
      await this.db
        .forUpdate(tx.selectFrom('accounts').select('id').where('id', '=', accountId))
        .executeTakeFirstOrThrow();
      const row = await personal(tx, accountId, id);
      if (!row) return null;
      const used = await personalUsage(tx, accountId);
      // The font is there already: the quota's count is met; its bytes are the new file's.
      const over = overFontQuota(
        { count: used.count - 1, bytes: used.bytes - num(row.bytes) },
        file.bytes,
        file.quota,
      );
      if (over) throw over;
      const change = {
        family: file.info.family,
        scripts: JSON.stringify(file.info.scripts),
        glyph_count: file.info.glyphCount,
        codepoints: file.info.codepoints,
        location: file.location,
        sha256: file.sha256,
        bytes: file.bytes,
        // A new file comes from a hand built again.
        source: 'hand',
      };
      await tx.updateTable('fonts').set(change).where('id', '=', id).execute();
      return { before: toFont(row), after: toFont({ ...row, ...change }) };
    });
  }

  /** Removes one of the account's own fonts (never a shared one): the record it had, or null. */
  async removePersonal(accountId: string, id: string): Promise<FontRecord | null> {
    return this.db.write(async (tx) => {
      const row = await personal(tx, accountId, id);
      if (!row) return null;
      await tx.deleteFrom('fonts').where('id', '=', id).where('account_id', '=', accountId).execute();
      return toFont(row);
    });
  }
}

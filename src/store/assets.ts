// Uploaded images: metadata here, bytes in the blob store. The per-account quota (count and
// bytes, both key modes together) is decided under the account row lock, so racing uploads
// cannot pass it together.
import type { KeyMode } from '../domain/api-keys.ts';
import { Refusal } from '../domain/errors.ts';
import type { ImageType } from '../domain/images.ts';
import type { Tenant } from '../domain/tenant.ts';
import { type Db, num, type Tx } from './database.ts';
import { type Kept, settleIn } from './idempotency.ts';
import type { AssetsTable } from './schema.ts';

export interface AssetRecord {
  id: string;
  accountId: string;
  mode: KeyMode;
  type: ImageType;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  blobKey: string;
  createdAt: string;
}

export interface AssetQuota {
  maxCount: number;
  maxTotalBytes: number;
}

function toAsset(r: AssetsTable): AssetRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    mode: r.mode as KeyMode,
    type: r.type as ImageType,
    width: num(r.width),
    height: num(r.height),
    bytes: num(r.bytes),
    sha256: r.sha256,
    blobKey: r.blob_key,
    createdAt: r.created_at,
  };
}

async function usedBy(q: Tx, accountId: string): Promise<{ count: number; bytes: number }> {
  const r = await q
    .selectFrom('assets')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('bytes').as('total')])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { count: num(r.n), bytes: num(r.total ?? 0) };
}

/** The image `id` if it is the tenant's (account and key mode). */
const ofTenant = (q: Tx, tenant: Tenant, id: string) =>
  q
    .selectFrom('assets')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', tenant.accountId)
    .where('mode', '=', tenant.mode);

export class AssetRepo {
  constructor(private readonly db: Db) {}

  /** Records an uploaded image if the account's quota still has room for it. */
  async create(
    tenant: Tenant,
    asset: Omit<AssetRecord, 'accountId' | 'mode'>,
    quota: AssetQuota,
    keep?: Kept,
  ): Promise<AssetRecord> {
    const row: AssetsTable = {
      id: asset.id,
      account_id: tenant.accountId,
      mode: tenant.mode,
      type: asset.type,
      width: asset.width,
      height: asset.height,
      bytes: asset.bytes,
      sha256: asset.sha256,
      blob_key: asset.blobKey,
      created_at: asset.createdAt,
    };
    await this.db.write(async (tx) => {
      await this.db
        .forUpdate(tx.selectFrom('accounts').select('id').where('id', '=', tenant.accountId))
        .executeTakeFirstOrThrow();
      const { count, bytes: total } = await usedBy(tx, tenant.accountId);
      if (count + 1 > quota.maxCount) {
        throw new Refusal(
          'invalid',
          `an account may hold at most ${quota.maxCount} images, it holds ${count} already`,
        );
      }
      if (total + asset.bytes > quota.maxTotalBytes) {
        throw new Refusal(
          'invalid',
          `an account's images may total at most ${quota.maxTotalBytes} bytes, it holds ${total} and this one is ${asset.bytes}`,
        );
      }
      await tx.insertInto('assets').values(row).execute();
      if (keep) await settleIn(tx, keep.claim, keep.reply);
    });
    return toAsset(row);
  }

  async get(tenant: Tenant, id: string): Promise<AssetRecord | null> {
    const row = await ofTenant(this.db.kysely, tenant, id).executeTakeFirst();
    return row ? toAsset(row) : null;
  }

  async exists(tenant: Tenant, id: string): Promise<boolean> {
    return (await this.get(tenant, id)) !== null;
  }

  /** The tenant's images, newest first (an account holds at most ASSETS_MAX_COUNT). */
  async list(tenant: Tenant): Promise<AssetRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('assets')
      .selectAll()
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toAsset);
  }

  /** Forgets the image; null when the tenant has no such image. Its bytes are the caller's to delete. */
  async remove(tenant: Tenant, id: string): Promise<AssetRecord | null> {
    return this.db.write(async (tx) => {
      const row = await ofTenant(tx, tenant, id).executeTakeFirst();
      if (!row) return null;
      await tx.deleteFrom('assets').where('id', '=', id).execute();
      return toAsset(row);
    });
  }

  /** Count and bytes of all the account's images (both modes). */
  usage(accountId: string): Promise<{ count: number; bytes: number }> {
    return usedBy(this.db.kysely, accountId);
  }
}

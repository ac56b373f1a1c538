// Uploaded images: metadata here, bytes in the blob store.
import type { Tenant } from '../domain/tenant.ts';
import type { Db } from './database.ts';

export class AssetRepo {
  constructor(private readonly db: Db) {}

  async exists(tenant: Tenant, id: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('assets')
      .select('id')
      .where('id', '=', id)
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .executeTakeFirst();
    return !!row;
  }
}

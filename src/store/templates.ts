// Templates: the validated JSON model with a revision; jobs copy a snapshot of it.
import type { KeyMode } from '../domain/api-keys.ts';
import { Refusal } from '../domain/errors.ts';
import { type TemplateKind, type TemplateModel, templateKind } from '../domain/template.ts';
import type { Tenant } from '../domain/tenant.ts';
import { newId } from '../lib/ids.ts';
import { type Db, num } from './database.ts';
import { type Page, pageOf } from './paging.ts';
import { ReadCache } from './read-cache.ts';
import type { TemplatesTable } from './schema.ts';

export interface TemplateRecord {
  id: string;
  accountId: string;
  mode: KeyMode;
  name: string;
  kind: TemplateKind;
  revision: number;
  model: TemplateModel;
  createdAt: string;
  updatedAt: string;
}

function toTemplate(r: TemplatesTable): TemplateRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    mode: r.mode as KeyMode,
    name: r.name,
    kind: r.kind as TemplateKind,
    revision: num(r.revision),
    model: JSON.parse(r.model) as TemplateModel,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export class TemplateRepo {
  private readonly cache: ReadCache<TemplateRecord | null>;

  constructor(private readonly db: Db) {
    this.cache = new ReadCache(db);
  }

  /** Stores a parsed template; at most `max` templates per account (both modes together). */
  async create(tenant: Tenant, model: TemplateModel, max: number, now: Date): Promise<TemplateRecord> {
    const at = now.toISOString();
    const row: TemplatesTable = {
      id: newId('tpl'),
      account_id: tenant.accountId,
      mode: tenant.mode,
      name: model.name,
      version: model.version,
      kind: templateKind(model),
      model: JSON.stringify(model),
      revision: 1,
      created_at: at,
      updated_at: at,
    };
    await this.db.write(async (tx) => {
      const account = await this.db
        .forUpdate(tx.selectFrom('accounts').select('id').where('id', '=', tenant.accountId))
        .executeTakeFirst();
      if (!account)
        throw new Refusal('invalid', `account ${JSON.stringify(tenant.accountId)} does not exist`);
      const n = await tx
        .selectFrom('templates')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', tenant.accountId)
        .executeTakeFirstOrThrow();
      if (num(n.n) >= max) {
        throw new Refusal(
          'invalid',
          `account ${tenant.accountId} has ${num(n.n)} templates, the most allowed is ${max}`,
        );
      }
      await tx.insertInto('templates').values(row).execute();
    });
    return toTemplate(row);
  }

  /** Replaces a template's model: the revision goes up; jobs keep the snapshot they took. */
  async update(tenant: Tenant, id: string, model: TemplateModel, now: Date): Promise<TemplateRecord | null> {
    return this.db.write(async (tx) => {
      const current = await this.db
        .forUpdate(
          tx
            .selectFrom('templates')
            .selectAll()
            .where('id', '=', id)
            .where('account_id', '=', tenant.accountId)
            .where('mode', '=', tenant.mode),
        )
        .executeTakeFirst();
      if (!current) return null;
      if (templateKind(model) !== current.kind) {
        throw new Refusal('invalid', `template kind must stay ${current.kind}, got ${templateKind(model)}`);
      }
      await tx
        .updateTable('templates')
        .set({
          name: model.name,
          model: JSON.stringify(model),
          revision: num(current.revision) + 1,
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .execute();
      return toTemplate(
        await tx.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      );
    });
  }

  /** The template if it belongs to this tenant (account and key mode), else null. */
  async get(tenant: Tenant, id: string): Promise<TemplateRecord | null> {
    const t = await this.cache.get(id, async () => {
      const row = await this.db.kysely
        .selectFrom('templates')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toTemplate(row) : null;
    });
    return t && t.accountId === tenant.accountId && t.mode === tenant.mode ? t : null;
  }

  async list(
    tenant: Tenant,
    opts: { limit: number; cursor?: string | undefined },
  ): Promise<Page<TemplateRecord>> {
    const q = this.db.kysely
      .selectFrom('templates')
      .selectAll()
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode);
    return pageOf(q, opts, toTemplate);
  }
}

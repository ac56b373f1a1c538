// The store: one object holding the repositories over one database, for either dialect.
import type { PlanCatalog } from '../domain/plans.ts';
import { AccountRepo } from './accounts.ts';
import { AssetRepo } from './assets.ts';
import { BatchRepo } from './batches.ts';
import { BillingRepo } from './billing.ts';
import { Db, type DatabaseTarget } from './database.ts';
import { FontRepo } from './fonts.ts';
import { GenerationRepo } from './generations.ts';
import { HandRepo } from './hands.ts';
import { IdempotencyRepo } from './idempotency.ts';
import { PlanRequestRepo } from './plan-requests.ts';
import { TemplateRepo } from './templates.ts';
import { WebhookRepo } from './webhooks.ts';
import { UserRepo } from './users.ts';

export type { Account, ApiKeyRecord } from './accounts.ts';
export type { Invitation, Member, SessionGrant } from './users.ts';
export type { BalanceReport, ChargeResult } from './billing.ts';
export type { DatabaseTarget, Tx } from './database.ts';
export type { AssetRecord } from './assets.ts';
export type { FontRecord } from './fonts.ts';
export type { HandRecord, HandScan } from './hands.ts';
export type { PlanRequest, PlanRequestStatus } from './plan-requests.ts';
export { PLAN_REQUEST_STATUSES } from './plan-requests.ts';
export type { Completion } from './generations.ts';
export type { BatchOutput, NewBatch } from './batches.ts';
export type { IdempotencyClaim, Kept, StoredReply, Taken } from './idempotency.ts';
export type { Page } from './paging.ts';
export type { TemplateRecord } from './templates.ts';
export type {
  ClaimedDelivery,
  DeliveryStatus,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhooks.ts';

export class Store {
  readonly accounts: AccountRepo;
  readonly billing: BillingRepo;
  readonly templates: TemplateRepo;
  readonly fonts: FontRepo;
  readonly hands: HandRepo;
  readonly planRequests: PlanRequestRepo;
  readonly assets: AssetRepo;
  readonly generations: GenerationRepo;
  readonly batches: BatchRepo;
  readonly idempotency: IdempotencyRepo;
  readonly webhooks: WebhookRepo;
  readonly users: UserRepo;

  constructor(
    readonly db: Db,
    readonly plans: PlanCatalog,
    /** The migrations this opening applied (none when the schema was up to date). */
    readonly migrated: readonly string[] = [],
  ) {
    this.accounts = new AccountRepo(db, plans);
    this.billing = new BillingRepo(db, plans);
    this.templates = new TemplateRepo(db);
    this.fonts = new FontRepo(db);
    this.hands = new HandRepo(db);
    this.planRequests = new PlanRequestRepo(db, plans);
    this.assets = new AssetRepo(db);
    this.webhooks = new WebhookRepo(db);
    this.batches = new BatchRepo(db, this.billing, this.webhooks);
    this.generations = new GenerationRepo(db, this.billing, this.webhooks, this.batches);
    this.idempotency = new IdempotencyRepo(db);
    this.users = new UserRepo(db, this.accounts, this.billing);
  }

  /** Opens the database and brings its schema up to date. */
  static async open(target: DatabaseTarget, plans: PlanCatalog): Promise<Store> {
    const db = await Db.open(target);
    let migrated: string[];
    try {
      await db.ping();
      migrated = await db.migrate();
    } catch (err) {
      await db.close().catch(() => {});
      const where = target.dialect === 'postgres' ? redact(target.url) : target.file;
      throw new Error(`cannot open the ${target.dialect} store at ${where}: ${(err as Error).message}`);
    }
    return new Store(db, plans, migrated);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

/** A connection string without its password, for messages and logs. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable url)';
  }
}

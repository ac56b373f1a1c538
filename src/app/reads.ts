// What the HTTP surfaces show: each read they make is a use-case here, as each write is one of
// the other use-cases, so that no surface reaches the store or the blobs itself.
import type { BlobStore } from '../blobs/types.ts';
import type { Job } from '../domain/generation.ts';
import type { Plan } from '../domain/plans.ts';
import type { Tenant } from '../domain/tenant.ts';
import type {
  Account,
  AssetRecord,
  FontRecord,
  Page,
  Store,
  TemplateRecord,
  WebhookEndpoint,
} from '../store/index.ts';

/** The records the surfaces show, named as the use-cases give them. */
export type {
  Account,
  ApiKeyRecord,
  AssetRecord,
  DeliveryStatus,
  FontRecord,
  HandRecord,
  PlanRequest,
  TemplateRecord,
  WebhookEndpoint,
} from '../store/index.ts';

export interface ReadDeps {
  store: Store;
  blobs: BlobStore;
}

type Paging = { limit: number; cursor?: string };

export function templatesPage(d: ReadDeps, tenant: Tenant, paging: Paging): Promise<Page<TemplateRecord>> {
  return d.store.templates.list(tenant, paging);
}

export function templateOf(d: ReadDeps, tenant: Tenant, id: string): Promise<TemplateRecord | null> {
  return d.store.templates.get(tenant, id);
}

export type JobFilters = Parameters<Store['generations']['list']>[1];

export function jobsPage(d: ReadDeps, tenant: Tenant, filters: JobFilters): Promise<Page<Job>> {
  return d.store.generations.list(tenant, filters);
}

export function jobOf(d: ReadDeps, tenant: Tenant, id: string): Promise<Job | null> {
  return d.store.generations.get(tenant, id);
}

export function accountOf(d: ReadDeps, id: string): Promise<Account | null> {
  return d.store.accounts.get(id);
}

/** The plan an account is on (undefined for a plan the catalogue no longer has). */
export function planOf(d: ReadDeps, account: Account): Plan | undefined {
  return d.store.plans[account.plan];
}

/** The plans an operator can put an account on. */
export function planNames(d: ReadDeps): string[] {
  return Object.keys(d.store.plans);
}

/** The fonts an account sees (the bundled hands and its own), and whether its plan has the premium ones. */
export async function fontsPage(
  d: ReadDeps,
  account: Account,
  paging: Paging,
): Promise<{ page: Page<FontRecord>; premium: boolean }> {
  const page = await d.store.fonts.pageVisible(account.id, paging);
  return { page, premium: planOf(d, account)?.premiumFonts ?? false };
}

/** A tenant's images, and the bytes its account's images take. */
export async function assetsOf(
  d: ReadDeps,
  tenant: Tenant,
): Promise<{ data: AssetRecord[]; used: { count: number; bytes: number } }> {
  const [data, used] = await Promise.all([
    d.store.assets.list(tenant),
    d.store.assets.usage(tenant.accountId),
  ]);
  return { data, used };
}

/** An image and its bytes, or null where either is gone. */
export async function assetImage(
  d: ReadDeps,
  tenant: Tenant,
  id: string,
): Promise<{ asset: AssetRecord; bytes: Uint8Array } | null> {
  const asset = await d.store.assets.get(tenant, id);
  const bytes = asset ? await d.blobs.get(asset.blobKey) : null;
  return asset && bytes ? { asset, bytes } : null;
}

export function endpointsOf(d: ReadDeps, accountId: string): Promise<WebhookEndpoint[]> {
  return d.store.webhooks.listEndpoints(accountId);
}

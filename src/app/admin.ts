// Operator use-cases: the "dashboard" of the spec. The CLI calls these today; the admin HTTP
// API and the terminal UI call the same functions, so an operation has one definition.
import type { BlobStore } from '../blobs/types.ts';
import type { Config } from '../config/index.ts';
import type { KeyMode } from '../domain/api-keys.ts';
import { shownId } from '../domain/ids.ts';
import { Refusal, isDecided } from '../domain/errors.ts';
import { checkParsedJson } from '../domain/validation.ts';
import { parseTemplate, type TemplateModel, templateAssetIds, templateFontIds } from '../domain/template.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import { type FontInfo, fontReader } from '../render/index.ts';
import type { Job } from '../domain/generation.ts';
import { todayRange } from '../domain/usage-range.ts';
import type {
  Account,
  ApiKeyRecord,
  BalanceReport,
  FontRecord,
  Store,
  TemplateRecord,
} from '../store/index.ts';
import type { Page } from '../store/paging.ts';
import type { JobQueue, JobWait } from '../queue/types.ts';
import { FONT_MAX_BYTES, type FontQuota } from '../domain/fonts.ts';
import type { UsageCounter } from '../store/schema.ts';

export interface AdminDeps {
  store: Store;
  blobs: BlobStore;
  config: Config;
  now: () => Date;
}

export function createAccount(
  d: AdminDeps,
  input: { name: string; plan?: string; period?: number },
): Promise<Account> {
  return d.store.accounts.create({ ...input, now: d.now() });
}

async function requireAccount(d: AdminDeps, id: string): Promise<Account> {
  const account = await d.store.accounts.get(id);
  if (!account) throw new Refusal('missing', `account ${shownId(id)} does not exist`);
  return account;
}

export interface AccountView {
  account: Account;
  balances: { live: BalanceReport; test: BalanceReport };
  keys: ApiKeyRecord[];
}

export async function showAccount(d: AdminDeps, id: string): Promise<AccountView> {
  const account = await requireAccount(d, id);
  const now = d.now();
  const [live, test, keys] = await Promise.all([
    d.store.billing.report({ accountId: id, mode: 'live' }, now),
    d.store.billing.report({ accountId: id, mode: 'test' }, now),
    d.store.accounts.listKeys(id),
  ]);
  return { account, balances: { live, test }, keys };
}

export function createKey(
  d: AdminDeps,
  input: { account: string; mode: KeyMode; name?: string },
): Promise<{ key: string; record: ApiKeyRecord }> {
  return d.store.accounts.createKey({
    accountId: input.account,
    mode: input.mode,
    name: input.name,
    max: d.config.keysMax,
    now: d.now(),
  });
}

export async function revokeKey(d: AdminDeps, keyId: string): Promise<ApiKeyRecord> {
  const key = await d.store.accounts.revokeKey(keyId, d.now());
  if (!key) throw new Refusal('missing', `key ${shownId(keyId)} does not exist`);
  return key;
}

/** A template to store: its JSON as text (a file), or the value itself (the dashboard's builder). */
type TemplateInput = { account: string; mode: KeyMode; source?: string } & (
  | { json: string }
  | { template: unknown }
);

/** Validates a template (DESIGN §5) and checks the fonts and assets it names. */
export async function checkedTemplate(d: AdminDeps, input: TemplateInput): Promise<TemplateModel> {
  let raw: unknown;
  if ('template' in input) raw = input.template;
  else
    try {
      raw = JSON.parse(input.json);
    } catch (err) {
      throw new Refusal(
        'invalid',
        `${input.source ?? 'template'} is not valid JSON: ${(err as Error).message}`,
      );
    }
  try {
    checkParsedJson(raw);
  } catch (err) {
    if (!isDecided(err)) throw err;
    throw new Refusal('invalid', `${input.source ?? 'template'}: ${err.message}`, { field: err.field });
  }
  const parsed = parseTemplate(raw);
  if (!parsed.ok)
    throw new Refusal('invalid', `${input.source ?? 'template'}: ${parsed.message}`, {
      field: parsed.field,
    });
  await requireAccount(d, input.account);
  const tenant = { accountId: input.account, mode: input.mode };
  for (const fontId of templateFontIds(parsed.template)) {
    if (!(await d.store.fonts.getVisible(input.account, fontId))) {
      throw new Refusal(
        'invalid',
        `${input.source ?? 'template'}: font ${fontId} does not exist for account ${input.account}`,
      );
    }
  }
  for (const assetId of templateAssetIds(parsed.template)) {
    if (!(await d.store.assets.exists(tenant, assetId))) {
      throw new Refusal(
        'invalid',
        `${input.source ?? 'template'}: asset ${assetId} does not exist for account ${input.account} (${input.mode})`,
      );
    }
  }
  return parsed.template;
}

/** Validates a template and stores it as a new one (revision 1). */
export async function importTemplate(d: AdminDeps, input: TemplateInput): Promise<TemplateRecord> {
  const model = await checkedTemplate(d, input);
  return d.store.templates.create(
    { accountId: input.account, mode: input.mode },
    model,
    d.config.templatesMax,
    d.now(),
  );
}

/**
 * Validates a template and stores it over an existing one of the same kind: its revision goes
 * up by one, and jobs already submitted keep the snapshot they were made with.
 */
export async function replaceTemplate(
  d: AdminDeps,
  input: TemplateInput & { id: string },
): Promise<TemplateRecord> {
  const model = await checkedTemplate(d, input);
  const t = await d.store.templates.update(
    { accountId: input.account, mode: input.mode },
    input.id,
    model,
    d.now(),
  );
  if (!t)
    throw new Refusal('missing', `template ${shownId(input.id)} does not exist for this account and mode`);
  return t;
}

/** Adds a font for everyone, or a personal font of one account; anything not a font is refused. */
export async function addFont(
  d: AdminDeps,
  input: {
    bytes: Uint8Array;
    name: string;
    account?: string;
    premium: boolean;
    license?: string;
    source?: string;
    /** Where the font comes from: a file uploaded (the default), or a hand built. */
    origin?: 'upload' | 'hand';
    /** A personal font's quota: how many an account may hold, and their bytes together. */
    quota?: FontQuota;
  },
  /**
   * How the file is parsed: here, by default (the CLI's short-lived process); the dashboard's
   * parses it on a render thread and writes its sample line there, and hands back the file's
   * bytes (moved to the thread and back, not copied). Throws NotAFontError or a Refusal for a
   * file that is not taken.
   */
  inspect: (bytes: Uint8Array) => Promise<{ info: FontInfo; bytes: Uint8Array }> = async (bytes) => ({
    info: (await fontReader()).inspectFont(bytes),
    bytes,
  }),
): Promise<FontRecord> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 120)
    throw new Refusal('invalid', `name must be 1-120 characters, got ${name.length}`, { field: 'name' });
  if (input.bytes.length > FONT_MAX_BYTES) {
    throw new Refusal(
      'invalid',
      `${input.source ?? 'font'} must be at most ${FONT_MAX_BYTES} bytes, got ${input.bytes.length}`,
    );
  }
  if (input.account) await requireAccount(d, input.account);
  let info: FontInfo;
  let bytes: Uint8Array;
  try {
    ({ info, bytes } = await inspect(input.bytes));
  } catch (err) {
    if (err instanceof (await fontReader()).NotAFontError)
      throw new Refusal('invalid', `${input.source ?? 'file'} is ${err.message}`);
    throw err;
  }
  const id = newId('font');
  const key = `fonts/${id}.ttf`;
  await d.blobs.put(key, bytes, 'font/ttf');
  try {
    return await d.store.fonts.add({
      id,
      accountId: input.account ?? null,
      name,
      premium: input.premium,
      license: input.license ?? 'proprietary',
      ...(input.origin ? { source: input.origin } : {}),
      info,
      location: key,
      sha256: sha256Hex(bytes),
      bytes: bytes.length,
      now: d.now(),
      ...(input.quota ? { quota: input.quota } : {}),
    });
  } catch (err) {
    await d.blobs.delete(key);
    throw err;
  }
}

export interface AccountSummary {
  account: Account;
  /** Sheets available now, per key mode. */
  balances: { live: BalanceReport; test: BalanceReport };
  /** Today's usage counters (UTC day), per key mode. */
  usageToday: { live: Record<UsageCounter, number>; test: Record<UsageCounter, number> };
}

/** A page of accounts with their plan, balances and today's usage: the operator's overview. */
export async function listAccounts(
  d: AdminDeps,
  opts: { limit: number; cursor?: string },
): Promise<Page<AccountSummary>> {
  const page = await d.store.accounts.page(opts);
  const now = d.now();
  const { from: day, to: next } = todayRange(now);
  const data = await Promise.all(
    page.data.map(async (account) => {
      const [live, test, usedLive, usedTest] = await Promise.all([
        d.store.billing.report({ accountId: account.id, mode: 'live' }, now),
        d.store.billing.report({ accountId: account.id, mode: 'test' }, now),
        d.store.billing.usageBetween({ accountId: account.id, mode: 'live' }, day, next),
        d.store.billing.usageBetween({ accountId: account.id, mode: 'test' }, day, next),
      ]);
      return { account, balances: { live, test }, usageToday: { live: usedLive, test: usedTest } };
    }),
  );
  return { ...page, data };
}

export function listKeys(d: AdminDeps, account: string): Promise<ApiKeyRecord[]> {
  return requireAccount(d, account).then(() => d.store.accounts.listKeys(account));
}

export type JobFilter = Parameters<Store['generations']['listAll']>[0];

/**
 * Any account's jobs, newest first, with why each unfinished one the queue holds is not running
 * (a retry's back-off and when it ends, its account's lane, or the line for a thread). Without a
 * queue that answers, the jobs come without their waits.
 */
export async function listJobs(
  d: AdminDeps & { queue?: Pick<JobQueue, 'waits'> },
  filter: JobFilter,
): Promise<Page<Job> & { waits: Map<string, JobWait> }> {
  const page = await d.store.generations.listAll(filter);
  const open = page.data.filter((j) => j.status === 'queued' || j.status === 'processing').map((j) => j.id);
  const waits =
    d.queue && open.length ? await d.queue.waits(open).catch(() => new Map<string, JobWait>()) : new Map();
  return { ...page, waits };
}

/**
 * Cancels any account's queued or processing job without charge; the queue, where this process
 * has one, stops its render where it runs (a job running elsewhere stops when it sees itself
 * cancelled). A finished job is refused and unchanged.
 */
export async function cancelAnyJob(
  d: AdminDeps & { queue?: Pick<JobQueue, 'abort'> },
  id: string,
): Promise<Job> {
  const job = await d.store.generations.find(id);
  if (!job) throw new Refusal('missing', `job ${shownId(id)} does not exist`);
  const cancelled = await d.store.generations.cancel(
    { accountId: job.accountId, mode: job.mode },
    id,
    d.now(),
  );
  if (!cancelled) throw new Refusal('missing', `job ${shownId(id)} does not exist`);
  d.queue?.abort(id);
  return cancelled;
}

export function listFonts(d: AdminDeps, account?: string): Promise<FontRecord[]> {
  return d.store.fonts.listVisible(account ?? null);
}

export async function topUp(
  d: AdminDeps,
  input: { account: string; sheets: number; mode: KeyMode },
): Promise<BalanceReport> {
  await requireAccount(d, input.account);
  return d.store.billing.topUp(
    { accountId: input.account, mode: input.mode },
    input.sheets,
    d.now(),
    `${input.mode} top-up`,
  );
}

export async function setPlan(
  d: AdminDeps,
  input: { account: string; plan: string; period?: number },
): Promise<Account> {
  await requireAccount(d, input.account);
  return d.store.accounts.setPlan(input.account, input.plan, input.period, d.now());
}

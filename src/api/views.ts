// How each surface shows a thing, written once: a template, a font, an image, a job (the
// public shape is the domain's jobView; the operator's adds what only the operator sees), an
// account and a key as the operator sees them.
import type { AccountSummary } from '../app/admin.ts';
import type {
  Account,
  ApiKeyRecord,
  AssetRecord,
  FontRecord,
  HandRecord,
  PlanRequest,
  TemplateRecord,
} from '../app/reads.ts';
import { type Job, jobView } from '../domain/generation.ts';

export { jobView } from '../domain/generation.ts';

/** The list row: id, name, mode, dates (spec §2), plus contract version and revision. */
export function templateSummary(t: TemplateRecord) {
  return {
    id: t.id,
    name: t.name,
    mode: t.kind,
    version: t.model.version,
    revision: t.revision,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** The builder model (v2: style and blocks) or, for legacy v1, `settings` and `fontIds`. */
export function templateDetail(t: TemplateRecord) {
  const m = t.model;
  const base = templateSummary(t);
  if (m.version === 1) return { ...base, settings: m.settings, fontIds: m.fontIds };
  return m.mode === 'structured'
    ? { ...base, style: m.style, blocks: m.blocks }
    : { ...base, style: m.style };
}

// Records come frozen from the store's cache, so their JSON can be kept with them.
const serialized = new WeakMap<TemplateRecord, string>();

/** templateDetail as JSON text, made once per record. */
export function templateDetailJson(t: TemplateRecord): string {
  let json = serialized.get(t);
  if (json === undefined) {
    json = JSON.stringify(templateDetail(t));
    serialized.set(t, json);
  }
  return json;
}

/** Metadata of a font (spec §2 Font): never the file, a URL to it or its glyphs. */
export function fontSummary(f: FontRecord, premiumAllowed: boolean) {
  return {
    id: f.id,
    name: f.name,
    family: f.family,
    personal: f.accountId !== null,
    /** Built from a hand: its file can be had (GET /fonts/{id}/file). */
    fromHand: f.source === 'hand',
    premium: f.premium,
    /** Whether the caller's plan may use it now (premium fonts need an eligible plan). */
    usable: !f.premium || premiumAllowed,
    scripts: f.scripts,
    glyphCount: f.glyphCount,
    license: f.license,
    createdAt: f.createdAt,
  };
}

/** A plan change request, as the account and the operator see it. */
export const planRequestView = (r: PlanRequest) => ({
  id: r.id,
  accountId: r.accountId,
  plan: r.plan,
  periodDays: r.periodDays,
  note: r.note,
  status: r.status,
  fromPlan: r.fromPlan,
  decisionNote: r.decisionNote,
  decidedAt: r.decidedAt,
  createdAt: r.createdAt,
});

/** A hand of one's own handwriting (docs/personal-hands.md): its pictures' pages, never where they are kept. */
export const handView = (h: HandRecord) => ({
  id: h.id,
  name: h.name,
  sheet: h.sheet,
  pictures: h.scans.map((s) => ({
    page: s.page,
    ...(s.redo ? { redo: s.redo } : {}),
    type: s.type,
    width: s.width,
    height: s.height,
    bytes: s.bytes,
  })),
  edits: h.edits,
  fontId: h.fontId,
  builtAt: h.builtAt,
  createdAt: h.createdAt,
  updatedAt: h.updatedAt,
});

/** An image (spec §4 Assets): never where its bytes are kept. */
export const assetView = (a: AssetRecord) => ({
  id: a.id,
  type: a.type,
  width: a.width,
  height: a.height,
  bytes: a.bytes,
  createdAt: a.createdAt,
});

/** A job as the operator sees it: whose, which mode, which attempt, and why it failed. */
/**
 * A job as the operator sees it; `wait`, for an unfinished job the queue holds, says why it is not
 * running: `retry` (the back-off after `faults` runs failed on a fault of the service, until
 * `until`), `account` (its account's lane is full) or `threads` (next in line).
 */
export const adminJobView = (j: Job, wait?: { reason: string; until?: Date; faults: number }) => ({
  ...jobView(j),
  accountId: j.accountId,
  mode: j.mode,
  attempt: j.attempt,
  ...(wait
    ? {
        wait: {
          reason: wait.reason,
          ...(wait.until ? { until: wait.until.toISOString() } : {}),
          faults: wait.faults,
        },
      }
    : {}),
  ...(j.status === 'failed' ? { failedAt: j.updatedAt } : {}),
  ...(j.error ? { error: j.error } : {}),
  ...(j.requestId ? { requestId: j.requestId } : {}),
});

/** An account as the operator sees it. */
export const accountView = (a: Account) => ({
  id: a.id,
  name: a.name,
  plan: a.plan,
  periodDays: a.periodDays,
  planAnchor: a.planAnchor,
  createdAt: a.createdAt,
});

/** An account in the operator's overview: its balances and today's usage, per key mode. */
export const accountSummaryView = (s: AccountSummary) => ({
  account: accountView(s.account),
  balances: s.balances,
  usageToday: s.usageToday,
});

/** An API key as listed: never the key itself, which is shown once when it is made. */
export const keyView = (k: ApiKeyRecord) => ({
  id: k.id,
  accountId: k.accountId,
  mode: k.mode,
  name: k.name,
  displayPrefix: k.displayPrefix,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
  lastUsedAt: k.lastUsedAt,
});

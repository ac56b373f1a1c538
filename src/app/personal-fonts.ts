// Personal fonts from the dashboard (spec §2 Font): creating one needs an eligible subscription
// (a plan that includes premium fonts). The file is parsed as every font is (addFont), then the
// engine writes a sample line with it alone, on a render thread, before anything is stored: a
// font that parses but cannot be shaped or drawn is refused with why. The sample is the answer's
// picture of the font.
import { limitReached, Refusal, show, apiRefusal } from '../domain/errors.ts';
import { overFontQuota, PERSONAL_LICENSE, TRIAL_LICENSE } from '../domain/fonts.ts';
import { shownId } from '../domain/ids.ts';
import { fontSampleSpec } from '../domain/render-spec.ts';
import { templateFontIds } from '../domain/template.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import type { RateLimiter } from '../limits/rate-limit.ts';
import type { FontRecord } from '../store/index.ts';
import { addFont } from './admin.ts';
import { findTemplate, findUnfinishedJob } from './assets.ts';
import type { Caller } from './auth.ts';
import { DRAFT_DPI, type DraftDeps } from './drafts.ts';
import { type FontCheckResult, RenderTaskError } from './ports/renderer.ts';

export type FontDeps = Omit<DraftDeps, 'draftLimiter'> & {
  /** Uploads per account and hour: each is parsed and drawn on a render thread before it is kept. */
  fontUploadLimiter: RateLimiter;
};

/** Whether the account's plan may create personal fonts (the same eligibility as premium fonts). */
export function personalFontsAllowed(d: Pick<FontDeps, 'store'>, caller: Caller): boolean {
  return d.store.plans[caller.account.plan]?.premiumFonts ?? false;
}

/** Refuses a caller whose plan may not create or change personal fonts (403 FONT_ACCESS_DENIED). */
export function requirePersonalFonts(d: Pick<FontDeps, 'store'>, caller: Caller): void {
  if (!personalFontsAllowed(d, caller))
    throw apiRefusal(
      'FONT_ACCESS_DENIED',
      `personal fonts need a plan that includes premium fonts; the account's plan is ${d.store.plans[caller.account.plan]?.name ?? caller.account.plan}`,
    );
}

/**
 * Counts one upload of an account against an hourly limit (`name`, said in the 429's `reason`),
 * or refuses it: personal font files, pictures given to hands.
 */
export async function spendHourly(
  limiter: RateLimiter,
  caller: Caller,
  name: 'font-uploads' | 'hand-pictures',
  what: string,
): Promise<void> {
  const rate = await limiter.consume(caller.account.id);
  if (!rate.allowed)
    throw limitReached(
      `at most ${limiter.points} ${what} an hour per account; wait ${rate.resetSeconds} s`,
      { name, limit: limiter.points, window: limiter.windowSeconds, reset: rate.resetSeconds },
      rate.resetSeconds,
    );
}

/** Counts one personal font file against the account's hourly uploads, or refuses it (429). */
const consumeUpload = (d: FontDeps, caller: Caller) =>
  spendHourly(d.fontUploadLimiter, caller, 'font-uploads', 'personal font uploads');

/** A font file parsed and its sample line written on a render thread, or a refusal saying why. */
async function checkedFile(d: FontDeps, bytes: Uint8Array): Promise<Extract<FontCheckResult, { ok: true }>> {
  const c = d.config;
  let result: FontCheckResult;
  try {
    result = await d.renderer.checkFont(
      {
        bytes,
        // Written under an id of its own, which the thread drops after the check.
        page: fontSampleSpec(newId('font'), ''),
        dpi: DRAFT_DPI,
        maxBytes: c.renderOutputMaxBytes,
        createdAt: d.now().toISOString(),
      },
      { timeoutMs: c.renderSyncTimeoutMs },
    );
  } catch (err) {
    if (!(err instanceof RenderTaskError)) throw err;
    const why = err.reason === 'timeout' ? 'it took too long' : err.message;
    throw new Refusal('invalid', `the font could not be checked: ${why}`, { field: 'body', cause: err });
  }
  if (!result.ok) throw new Refusal('invalid', result.message, { field: 'body' });
  return result;
}

const quotaOf = (c: FontDeps['config']) => ({
  maxCount: c.personalFontsMaxCount,
  maxTotalBytes: c.personalFontsMaxTotalBytes,
});

/**
 * Adds a personal font to the account: an uploaded file (its plan must include personal fonts),
 * or a hand's first build, `trial` on a plan without them (docs/decisions.md, "A hand for every
 * plan": test keys write with it; live keys once the plan includes personal fonts).
 */
export async function addPersonalFont(
  d: FontDeps,
  caller: Caller,
  input: {
    bytes: Uint8Array;
    name: string;
    license?: typeof PERSONAL_LICENSE | typeof TRIAL_LICENSE;
    origin?: 'upload' | 'hand';
  },
): Promise<{ font: FontRecord; sample: Uint8Array; line: string }> {
  const license = input.license ?? PERSONAL_LICENSE;
  if (license === PERSONAL_LICENSE) requirePersonalFonts(d, caller);
  const quota = quotaOf(d.config);
  // Refused before any work: an account at its quota, or past its uploads of the hour. The
  // quota is decided again, under the account's lock, as the font is recorded.
  const over = overFontQuota(await d.store.fonts.personalUsage(caller.account.id), input.bytes.length, quota);
  if (over) throw over;
  await consumeUpload(d, caller);
  let checked: Extract<FontCheckResult, { ok: true }> | undefined;
  const font = await addFont(
    d,
    {
      bytes: input.bytes,
      name: input.name,
      account: caller.account.id,
      premium: false,
      license,
      ...(input.origin ? { origin: input.origin } : {}),
      quota,
    },
    async (bytes) => {
      checked = await checkedFile(d, bytes);
      return { info: checked.info, bytes: checked.bytes };
    },
  );
  return { font, sample: checked!.sample, line: checked!.line };
}

/**
 * Gives one of the account's personal fonts a new file under the same id (a hand built again):
 * the plan (for a personal font; a trial hand's on any plan), the hourly uploads and the check of
 * an added font apply, and the quota counts the new file in place of the old. Render threads
 * load the new file when they next meet the id.
 */
export async function replacePersonalFontFile(
  d: FontDeps,
  caller: Caller,
  font: Pick<FontRecord, 'id' | 'license'>,
  bytes: Uint8Array,
): Promise<FontRecord> {
  const { id } = font;
  if (font.license !== TRIAL_LICENSE) requirePersonalFonts(d, caller);
  await consumeUpload(d, caller);
  const checked = await checkedFile(d, bytes);
  const sha256 = sha256Hex(checked.bytes);
  const location = `fonts/${id}.${sha256.slice(0, 12)}.ttf`;
  await d.blobs.put(location, checked.bytes, 'font/ttf');
  const replaced = await d.store.fonts
    .replaceFile(caller.account.id, id, {
      info: checked.info,
      location,
      sha256,
      bytes: checked.bytes.byteLength,
      quota: quotaOf(d.config),
    })
    .catch(async (err: unknown) => {
      await d.blobs.delete(location);
      throw err;
    });
  if (!replaced) {
    await d.blobs.delete(location);
    throw notMine(id);
  }
  if (replaced.before.location !== location)
    for (const key of fontFileKeys(replaced.before.location)) await d.blobs.delete(key);
  d.renderer.forgetFont(id);
  return replaced.after;
}

/** Where a built hand's font is kept as it is given (GET /fonts/{id}/file), beside the engine's file. */
export const exportKey = (location: string, format: FontFileFormat) => `${location}.export.${format}`;

export const FONT_FILE_FORMATS = ['otf', 'woff2'] as const;
export type FontFileFormat = (typeof FONT_FILE_FORMATS)[number];

/** Every blob of a font file: the engine's, and a built hand's as it is given. */
const fontFileKeys = (location: string) => [
  location,
  ...FONT_FILE_FORMATS.map((f) => exportKey(location, f)),
];

/**
 * A personal font of the account as a file to use elsewhere: a font built from a hand, as
 * OpenType (CFF) or WOFF2, with its alternates under salt, ss01-ss03 and calt. Another account's
 * font, a shared one, or a font uploaded as a file (its file is the one uploaded) is not found.
 */
export async function personalFontFile(
  d: Pick<FontDeps, 'store' | 'blobs'>,
  accountId: string,
  id: string,
  format: FontFileFormat,
): Promise<{ font: FontRecord; bytes: Uint8Array; contentType: string; filename: string }> {
  const font = await d.store.fonts.getVisible(accountId, id);
  if (!font || font.accountId !== accountId)
    throw apiRefusal('FONT_NOT_FOUND', `font ${shownId(id)} is not a personal font of this account`);
  const bytes = font.source === 'hand' ? await d.blobs.get(exportKey(font.location, format)) : null;
  if (!bytes)
    throw apiRefusal(
      'FONT_NOT_FOUND',
      font.source === 'hand'
        ? `font ${font.id} has no file to give yet: build its hand again`
        : `font ${font.id} was uploaded as a file, which is the file it is; only fonts built from a hand are given`,
    );
  const filename = `${font.name.replace(/[^\w .-]+/g, '').trim() || 'hand'}.${format}`;
  return { font, bytes, contentType: format === 'otf' ? 'font/otf' : 'font/woff2', filename };
}

/** A personal font's name as given: 1-120 characters once trimmed, or a refusal naming `name`. */
export function fontName(name: unknown): string {
  const shown = typeof name === 'string' ? name.trim() : '';
  if (shown.length < 1 || shown.length > 120)
    throw new Refusal(
      'invalid',
      `name must be 1-120 characters, got ${typeof name === 'string' ? shown.length : show(name)}`,
      { field: 'name' },
    );
  return shown;
}

const notMine = (id: string) =>
  new Refusal('missing', `font ${shownId(id)} is not a personal font of this account`);

/** Renames a personal font (editing one needs an eligible plan, as creating does). */
export async function renamePersonalFont(
  d: Pick<FontDeps, 'store'>,
  caller: Caller,
  id: string,
  name: unknown,
): Promise<FontRecord> {
  if (!personalFontsAllowed(d, caller))
    throw apiRefusal(
      'FONT_ACCESS_DENIED',
      'editing a personal font needs a plan that includes premium fonts',
    );
  const font = await d.store.fonts.renamePersonal(caller.account.id, id, fontName(name));
  if (!font) throw notMine(id);
  return font;
}

/**
 * Deletes a personal font, on any plan, unless a template (live or test) or an unfinished job
 * of the account writes with it (the refusal names which): its record first, then its bytes.
 */
export async function deletePersonalFont(
  d: Pick<FontDeps, 'store' | 'blobs' | 'renderer'>,
  accountId: string,
  id: string,
): Promise<FontRecord> {
  const font = await d.store.fonts.getVisible(accountId, id);
  if (!font || font.accountId !== accountId) throw notMine(id);
  for (const mode of ['live', 'test'] as const) {
    const tenant = { accountId, mode };
    const template = await findTemplate(d.store, tenant, (t) => templateFontIds(t.model).includes(id));
    if (template)
      throw new Refusal(
        'conflict',
        `${id} writes template ${template.id} (“${template.name}”, ${mode}); give the template another font first`,
      );
    const job = await findUnfinishedJob(d.store, tenant, (j) => templateFontIds(j.template).includes(id));
    if (job)
      throw new Refusal(
        'conflict',
        `${id} writes job ${job.id}, which has not finished; wait for it or cancel it`,
      );
  }
  const removed = await d.store.fonts.removePersonal(accountId, id);
  if (!removed) throw notMine(id);
  d.renderer.forgetFont(id);
  for (const key of fontFileKeys(removed.location)) await d.blobs.delete(key);
  return removed;
}

// Hands in the dashboard (docs/personal-hands.md): a personal font of one's own handwriting made
// from filled sample-sheet pages and edited before it is built. A hand keeps its pictures (each
// read on the render pool when it is given, refused unless it is a page of the hand's sheet), its
// edits, and the personal font its last build made. Its preview (every drawing's outline, a
// sample paragraph written with it, the warnings) is built afresh from those on the pool and
// changes nothing; only a build makes a font or gives the hand's font its new file, and until
// then templates write with what was built before.
import type { Config } from '../config/index.ts';
import { limitReached, Refusal, show, apiRefusal, isDecided } from '../domain/errors.ts';
import { PERSONAL_LICENSE, TRIAL_LICENSE } from '../domain/fonts.ts';
import { shownId } from '../domain/ids.ts';
import { sniff } from '../domain/images.ts';
import { fontSampleSpec } from '../domain/render-spec.ts';
import { newId } from '../lib/ids.ts';
import type { RateLimiter } from '../limits/rate-limit.ts';
import { type DrawingEdit, type HandEdits, type SheetCode, sheetLayout } from '../foundry/index.ts';
import type { FontRecord, HandRecord, HandScan } from '../store/index.ts';
import { type AdminDeps, addFont } from './admin.ts';
import { checkedUpload } from './assets.ts';
import type { Caller } from './auth.ts';
import { DRAFT_DPI } from './drafts.ts';
import {
  addPersonalFont,
  exportKey,
  FONT_FILE_FORMATS,
  type FontDeps,
  fontName,
  personalFontsAllowed,
  replacePersonalFontFile,
  spendHourly,
} from './personal-fonts.ts';
import {
  type HandBuildResult,
  type HandBuildTask,
  type Renderer,
  RenderTaskError,
} from './ports/renderer.ts';

export type HandDeps = FontDeps & { draftLimiter: RateLimiter; handPictureLimiter: RateLimiter };

/** The most pictures a hand keeps: the longest sheet's 5 pages and pages written again. */
export const HAND_MAX_SCANS = 12;
/** How far an edit may raise or lower a drawing, and space a character, in font units (1/1000 em). */
export const HAND_EDIT_LIMITS = {
  raise: 300,
  shift: 300,
  spacing: 150,
  scale: { least: 50, most: 150 },
} as const;

/** The paragraph a hand's preview writes. */
export const HAND_SAMPLE =
  'Dear Margaret, thank you so much for the lovely afternoon. The quick brown fox jumps over the lazy dog; ' +
  'pack my box with five dozen liquor jugs! 0123456789';

/** What a hand makes now, built afresh without being kept: or why its pages make no font yet. */
export type HandPreview =
  | {
      ok: true;
      pages: number[];
      characters: Extract<HandBuildResult, { ok: true }>['characters'];
      paths: Record<string, string>;
      warnings: Extract<HandBuildResult, { ok: true }>['warnings'];
      measured: { xHeight: number; baselineOffset: number };
      /** The sample paragraph written with it (PNG). */
      sample: Uint8Array;
    }
  | { ok: false; pages: number[]; message: string };

const layoutCode = (code: SheetCode) => sheetLayout(code.set, code.paper).code;

async function mine(d: HandDeps, caller: Caller, id: string): Promise<HandRecord> {
  const hand = await d.store.hands.get(caller.account.id, id);
  if (!hand) throw new Refusal('missing', `hand ${shownId(id)} is not a hand of this account`);
  return hand;
}

/** Runs a build on the pool; a run out of time or memory is a refusal of the pictures. */
async function run(d: { renderer: Renderer; config: Config }, task: HandBuildTask): Promise<HandBuildResult> {
  try {
    return await d.renderer.buildHand(task, { timeoutMs: d.config.renderTimeoutMs });
  } catch (err) {
    if (!(err instanceof RenderTaskError) || (err.reason !== 'timeout' && err.reason !== 'memory')) throw err;
    throw new Refusal('invalid', `the pictures could not be read within the limits: ${err.message}`, {
      field: 'body',
    });
  }
}

/** The hand's pictures as a build takes them, read from the blob store. */
async function pictures(d: HandDeps, hand: HandRecord): Promise<HandBuildTask['scans']> {
  return Promise.all(
    hand.scans.map(async (s) => {
      const bytes = await d.blobs.get(s.key);
      if (!bytes) throw apiRefusal('RENDER_FAILED', `a picture of hand ${hand.id} is missing from storage`);
      return { type: s.type, bytes, width: s.width, height: s.height, ...(s.redo ? { redo: s.redo } : {}) };
    }),
  );
}

/** Counts a picture against the account's hourly pictures (each is read in the hand process), or refuses it. */
const spendPicture = (d: HandDeps, caller: Caller) =>
  spendHourly(d.handPictureLimiter, caller, 'hand-pictures', 'pictures given to hands');

/**
 * A picture read as a page of a sheet on the pool (PNG or JPEG within the asset limits): which
 * page of which sheet it is, or a refusal saying why it is none.
 */
async function readPicture(
  d: HandDeps,
  picture: { bytes: Uint8Array; type?: string },
): Promise<{ scan: HandBuildTask['scans'][number]; code: SheetCode }> {
  const image = await checkedUpload(d.config, picture.bytes, picture.type);
  const scan = { type: image.type, bytes: picture.bytes, width: image.width, height: image.height };
  const result = await run(d, {
    preview: true,
    name: 'check',
    scans: [scan],
    createdAt: d.now().toISOString(),
  });
  // A page read that makes no font alone (a lowercase letter on another page) is still a page.
  if (!result.ok && !result.pages)
    throw new Refusal('invalid', result.message.replace(/^scan 1: /, ''), { field: 'body' });
  const code = result.pages![0]!;
  return { scan, code };
}

/** Where a hand's pictures are kept in the blob store. */
const handPrefix = (accountId: string, handId: string) => `hands/${accountId}/${handId}/`;

async function keep(
  d: HandDeps,
  accountId: string,
  handId: string,
  scan: HandBuildTask['scans'][number],
  page: number,
  redo?: string[],
): Promise<HandScan> {
  const key = `${handPrefix(accountId, handId)}${newId('asset')}`;
  await d.blobs.put(key, scan.bytes, scan.type);
  return {
    key,
    type: scan.type,
    width: scan.width,
    height: scan.height,
    bytes: scan.bytes.byteLength,
    page,
    ...(redo ? { redo } : {}),
  };
}

/** Starts a hand from a picture of one filled page of a sample sheet. */
export async function createHand(
  d: HandDeps,
  caller: Caller,
  input: { name: unknown; picture: { bytes: Uint8Array; type?: string } },
): Promise<HandRecord> {
  const name = fontName(input.name);
  await spendPicture(d, caller);
  const { scan, code } = await readPicture(d, input.picture);
  const id = newId('hand');
  const kept = await keep(d, caller.account.id, id, scan, code.page);
  return d.store.hands
    .create({ id, accountId: caller.account.id, name, sheet: layoutCode(code), scans: [kept], now: d.now() })
    .catch(async (err: unknown) => {
      await d.blobs.delete(kept.key);
      throw err;
    });
}

/**
 * Adds a picture to a hand: another page of its sheet (one of a page it has replaces it), or,
 * with `redo`, a page written again for those drawings only.
 */
export async function addHandPicture(
  d: HandDeps,
  caller: Caller,
  id: string,
  input: { picture: { bytes: Uint8Array; type?: string }; redo?: unknown },
): Promise<HandRecord> {
  const hand = await mine(d, caller, id);
  const redo = input.redo === undefined ? undefined : drawingKeys(input.redo, 'redo');
  if (hand.scans.length >= HAND_MAX_SCANS)
    throw new Refusal(
      'invalid',
      `a hand keeps at most ${HAND_MAX_SCANS} pictures, it has ${hand.scans.length}`,
      { field: 'body' },
    );
  await spendPicture(d, caller);
  const { scan, code } = await readPicture(d, input.picture);
  const layout = sheetLayout(code.set, code.paper);
  if (layout.code !== hand.sheet)
    throw new Refusal(
      'invalid',
      `the picture is a page of sheet ${layout.code}; this hand is written on ${hand.sheet}`,
      { field: 'body' },
    );
  const absent = (redo ?? []).filter(
    (key) => !layout.boxes.some((b) => b.page === code.page && `${b.char}/${b.variant}` === key),
  );
  if (absent.length)
    throw new Refusal(
      'invalid',
      `page ${code.page} has no box ${absent.join(' ')}: a drawing is redone on the page that has its box`,
      { field: 'redo' },
    );
  const kept = await keep(d, caller.account.id, hand.id, scan, code.page, redo);
  // The hand's list as it stands when the picture joins it: others given at the same time may
  // have joined since it was read. A picture that does not join leaves no blob behind.
  const added = await d.store.hands
    .addScan(caller.account.id, hand.id, kept, { replacesPage: !redo, most: HAND_MAX_SCANS, now: d.now() })
    .catch(async (err: unknown) => {
      await d.blobs.delete(kept.key);
      throw err;
    });
  if (!added) {
    await d.blobs.delete(kept.key);
    throw new Refusal('missing', `hand ${shownId(id)} is not a hand of this account`);
  }
  for (const s of added.dropped) await d.blobs.delete(s.key);
  return added.hand;
}

/** Drawings named as `a/2`, each once. */
function drawingKeys(value: unknown, field: string): string[] {
  if (
    !Array.isArray(value) ||
    value.length < 1 ||
    !value.every((k) => typeof k === 'string' && /^.{1,2}\/[1-3]$/u.test(k))
  )
    throw new Refusal(
      'invalid',
      `${field} must be a list of drawings as character/number (a/2), got ${show(value)}`,
      { field },
    );
  return [...new Set(value as string[])];
}

/** Sets a hand's edits (docs/personal-hands.md, Edits): nothing changes for templates until it is built. */
export async function editHand(d: HandDeps, caller: Caller, id: string, edits: unknown): Promise<HandRecord> {
  const hand = await mine(d, caller, id);
  const checked = checkedEdits(edits);
  return (await d.store.hands.update(caller.account.id, hand.id, { edits: checked, now: d.now() }))!;
}

function checkedEdits(value: unknown): HandEdits {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value))
    throw new Refusal('invalid', `edits must be an object, got ${show(value)}`, { field: 'edits' });
  const out: Required<HandEdits> = { drawings: {}, spacing: {} };
  const within = (field: string, v: unknown, most: number) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > most)
      throw new Refusal(
        'invalid',
        `${field} must be a whole number from -${most} to ${most}, got ${show(v)}`,
        { field },
      );
    return v;
  };
  for (const key of Object.keys(value))
    if (key !== 'drawings' && key !== 'spacing')
      throw new Refusal('invalid', `edits has no field ${key}`, { field: `edits.${key}` });
  const drawings = value.drawings ?? {};
  if (!isObject(drawings))
    throw new Refusal('invalid', `edits.drawings must be an object, got ${show(drawings)}`, {
      field: 'edits.drawings',
    });
  for (const [key, edit] of Object.entries(drawings)) {
    const field = `edits.drawings.${key}`;
    drawingKeys([key], field);
    if (!isObject(edit))
      throw new Refusal('invalid', `${field} must be an object, got ${show(edit)}`, { field });
    const e: DrawingEdit = {};
    for (const name of Object.keys(edit))
      if (!['raise', 'shift', 'scale', 'removed'].includes(name))
        throw new Refusal('invalid', `${field} has no field ${name}`, { field: `${field}.${name}` });
    if (edit.raise !== undefined) e.raise = within(`${field}.raise`, edit.raise, HAND_EDIT_LIMITS.raise);
    if (edit.shift !== undefined) e.shift = within(`${field}.shift`, edit.shift, HAND_EDIT_LIMITS.shift);
    if (edit.scale !== undefined) {
      const { least, most } = HAND_EDIT_LIMITS.scale;
      if (
        typeof edit.scale !== 'number' ||
        !Number.isInteger(edit.scale) ||
        edit.scale < least ||
        edit.scale > most
      )
        throw new Refusal(
          'invalid',
          `${field}.scale must be a whole per cent from ${least} to ${most}, got ${show(edit.scale)}`,
          { field: `${field}.scale` },
        );
      e.scale = edit.scale;
    }
    if (edit.removed !== undefined) {
      if (typeof edit.removed !== 'boolean')
        throw new Refusal('invalid', `${field}.removed must be true or false, got ${show(edit.removed)}`, {
          field: `${field}.removed`,
        });
      e.removed = edit.removed;
    }
    out.drawings[key] = e;
  }
  const spacing = value.spacing ?? {};
  if (!isObject(spacing))
    throw new Refusal('invalid', `edits.spacing must be an object, got ${show(spacing)}`, {
      field: 'edits.spacing',
    });
  for (const [char, v] of Object.entries(spacing)) {
    if ([...char].length !== 1)
      throw new Refusal('invalid', `edits.spacing is by character, got ${show(char)}`, {
        field: 'edits.spacing',
      });
    out.spacing[char] = within(`edits.spacing.${char}`, v, HAND_EDIT_LIMITS.spacing);
  }
  return out;
}

/** What the hand makes now (built afresh, nothing kept): its drawings, warnings and a sample paragraph. */
export async function previewHand(
  d: HandDeps,
  caller: Caller,
  id: string,
): Promise<{ hand: HandRecord; preview: HandPreview }> {
  const hand = await mine(d, caller, id);
  const rate = await d.draftLimiter.consume(caller.account.id);
  if (!rate.allowed)
    throw limitReached(
      `at most ${d.draftLimiter.points} previews a minute per account; wait ${rate.resetSeconds} s`,
      {
        name: 'drafts-per-minute',
        limit: d.draftLimiter.points,
        window: d.draftLimiter.windowSeconds,
        reset: rate.resetSeconds,
      },
      rate.resetSeconds,
    );
  const result = await run(d, {
    preview: true,
    name: hand.name,
    scans: await pictures(d, hand),
    edits: hand.edits,
    createdAt: d.now().toISOString(),
  });
  const pages = [...new Set(hand.scans.filter((s) => !s.redo).map((s) => s.page))].sort((a, b) => a - b);
  if (!result.ok) return { hand, preview: { ok: false, pages, message: result.message } };
  const probe = newId('font');
  // A wide hand's paragraph takes more lines: it is drawn on a taller strip, not refused.
  const drawSample = (height: number) =>
    d.renderer.run(
      {
        output: 'draft',
        spec: fontSampleSpec(probe, HAND_SAMPLE, { height, fallback: true }),
        fonts: { [probe]: result.bytes },
        images: {},
        createdAt: d.now().toISOString(),
        limits: { maxPages: 1, maxBytes: d.config.renderOutputMaxBytes, previewDpi: DRAFT_DPI },
        once: true,
      },
      { timeoutMs: d.config.renderSyncTimeoutMs },
    );
  const sample = await drawSample(42).catch((err: unknown) => {
    if (err instanceof RenderTaskError && err.code === 'TOO_MANY_PAGES') return drawSample(120);
    throw err;
  });
  const { bytes: _, ok: __, ...rest } = result;
  return { hand, preview: { ...rest, ok: true, pages, sample: sample.bytes } };
}

/**
 * Builds the hand into its personal font: the first build makes the font (the plan, the quota
 * and the hourly uploads of an uploaded font apply), each later one gives that font the new file
 * under the same id, so templates that write with it write with the new one from then on.
 */
export async function buildHandFont(
  d: HandDeps,
  caller: Caller,
  id: string,
): Promise<{ hand: HandRecord; font: FontRecord }> {
  const hand = await mine(d, caller, id);
  const result = await run(d, {
    name: hand.name,
    scans: await pictures(d, hand),
    edits: hand.edits,
    createdAt: d.now().toISOString(),
  });
  if (!result.ok)
    throw new Refusal('invalid', `the hand makes no font yet: ${result.message}`, { field: 'scans' });
  const existing = hand.fontId ? await d.store.fonts.getVisible(caller.account.id, hand.fontId) : null;
  // On a plan without personal fonts the first build makes a trial font (test keys only); a
  // personal font built before is refused a new file until the plan includes them again.
  const license = personalFontsAllowed(d, caller) ? PERSONAL_LICENSE : TRIAL_LICENSE;
  const font =
    existing?.accountId === caller.account.id
      ? await replacePersonalFontFile(d, caller, existing, result.bytes)
      : (await addPersonalFont(d, caller, { bytes: result.bytes, name: hand.name, license, origin: 'hand' }))
          .font;
  // The font as it is given to be used elsewhere, kept beside the engine's file (and deleted with it).
  if (result.exported)
    for (const format of FONT_FILE_FORMATS)
      await d.blobs.put(exportKey(font.location, format), result.exported[format], `font/${format}`);
  const built = await d.store.hands.update(caller.account.id, hand.id, {
    fontId: font.id,
    builtAt: d.now(),
    now: d.now(),
  });
  return { hand: built!, font };
}

export function listHands(d: HandDeps, caller: Caller): Promise<HandRecord[]> {
  return d.store.hands.list(caller.account.id);
}

/** Deletes a hand and its pictures; the font it built stays (delete it among the fonts). */
export async function deleteHand(d: HandDeps, caller: Caller, id: string): Promise<HandRecord> {
  const removed = await d.store.hands.remove(caller.account.id, id);
  if (!removed) throw new Refusal('missing', `hand ${shownId(id)} is not a hand of this account`);
  // Every blob under the hand's prefix, its listed pictures and any a crash left unlisted.
  const keys: string[] = [];
  for await (const key of d.blobs.list(handPrefix(caller.account.id, id))) keys.push(key);
  for (const key of keys) await d.blobs.delete(key);
  return removed;
}

/**
 * The operator's build (scriptorium admin font build): a personal font of `account` from
 * pictures of a filled sheet's pages, each checked as an upload, stored as an added font is.
 */
export async function buildAccountFont(
  d: AdminDeps & { renderer: Renderer },
  input: { account: string; name: string; scans: { bytes: Uint8Array; type?: string }[] },
): Promise<{ font: FontRecord; build: Omit<Extract<HandBuildResult, { ok: true }>, 'bytes' | 'ok'> }> {
  if (input.scans.length < 1 || input.scans.length > HAND_MAX_SCANS)
    throw new Refusal(
      'invalid',
      `scans must be 1-${HAND_MAX_SCANS} pictures of a filled sample sheet's pages, got ${input.scans.length}`,
      { field: 'scans' },
    );
  const scans = [];
  for (const [i, scan] of input.scans.entries()) {
    try {
      const image = await checkedUpload(d.config, scan.bytes, scan.type ?? sniff(scan.bytes));
      scans.push({ type: image.type, bytes: scan.bytes, width: image.width, height: image.height });
    } catch (err) {
      if (!isDecided(err)) throw err;
      throw apiRefusal(err.code, `scan ${i + 1}: ${err.message}`, { status: err.status, field: 'scans' });
    }
  }
  const result = await run(d, { name: input.name, scans, createdAt: d.now().toISOString() });
  if (!result.ok) throw new Refusal('invalid', result.message, { field: 'scans' });
  const { bytes, ok: _, ...build } = result;
  const font = await addFont(d, {
    bytes,
    name: input.name,
    account: input.account,
    premium: false,
    license: PERSONAL_LICENSE,
  });
  return { font, build };
}

// A personal font of one's own handwriting, built from filled sample-sheet pages
// (docs/personal-hands.md). Each picture is checked as an asset upload is (PNG or JPEG within the
// asset limits, by its header; nothing decoded), then the render pool reads the pages and builds
// the font; only a font that was built is stored, as a personal font of the account, through the
// same door as an uploaded file (parsed, its sample line written, the quota kept).
import type { Config } from '../config/index.ts';
import { ApiError, Refusal } from '../domain/errors.ts';
import { sniff } from '../domain/images.ts';
import type { HandEdits } from '../render/index.ts';
import type { FontRecord } from '../store/index.ts';
import { type AdminDeps, addFont } from './admin.ts';
import { HAND_MAX_SCANS } from './hands.ts';
import { checkedUpload } from './assets.ts';
import type { Caller } from './auth.ts';
import { addPersonalFont, type FontDeps } from './personal-fonts.ts';
import { type HandBuildResult, type Renderer, RenderTaskError } from './ports/renderer.ts';

export interface HandInput {
  name: string;
  /** The pictures, each with the type it was sent as (the file's own type when none was). */
  scans: { bytes: Uint8Array; type?: string }[];
  edits?: HandEdits;
}

export type BuiltHand = Omit<Extract<HandBuildResult, { ok: true }>, 'bytes' | 'ok'>;

/** The pages' font built on the render pool, or a Refusal saying which picture and why. */
async function built(
  d: { renderer: Renderer; config: Config; now: () => Date },
  input: HandInput,
): Promise<Extract<HandBuildResult, { ok: true }>> {
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
      if (!(err instanceof ApiError)) throw err;
      throw new ApiError(err.code, `scan ${i + 1}: ${err.message}`, { status: err.status, field: 'scans' });
    }
  }
  let result: HandBuildResult;
  try {
    result = await d.renderer.buildHand(
      {
        name: input.name,
        scans,
        ...(input.edits ? { edits: input.edits } : {}),
        createdAt: d.now().toISOString(),
      },
      { timeoutMs: d.config.renderTimeoutMs },
    );
  } catch (err) {
    if (!(err instanceof RenderTaskError) || (err.reason !== 'timeout' && err.reason !== 'memory')) throw err;
    throw new Refusal('invalid', `the font could not be built within the limits: ${err.message}`, {
      field: 'scans',
    });
  }
  if (!result.ok) throw new Refusal('invalid', result.message, { field: 'scans' });
  return result;
}

const report = ({ bytes: _, ok: __, ...rest }: Extract<HandBuildResult, { ok: true }>): BuiltHand => rest;

/**
 * A personal font of the caller's account built from filled sheet pages: the plan, the quota
 * and the hourly uploads are those of an uploaded font (addPersonalFont).
 */
export async function buildPersonalFont(
  d: FontDeps,
  caller: Caller,
  input: HandInput,
): Promise<{ font: FontRecord; sample: Uint8Array; line: string; build: BuiltHand }> {
  const font = await built(d, input);
  const added = await addPersonalFont(d, caller, { bytes: font.bytes, name: input.name });
  return { ...added, build: report(font) };
}

/** The operator's build: a personal font of `account` from filled sheet pages (scriptorium admin font build). */
export async function buildAccountFont(
  d: AdminDeps & { renderer: Renderer },
  input: HandInput & { account: string },
): Promise<{ font: FontRecord; build: BuiltHand }> {
  const font = await built(d, input);
  const record = await addFont(d, {
    bytes: font.bytes,
    name: input.name,
    account: input.account,
    premium: false,
    license: 'personal',
  });
  return { font: record, build: report(font) };
}

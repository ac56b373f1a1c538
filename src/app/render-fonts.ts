// The template's font for a render: may the caller use it (it exists; a premium font needs an
// eligible plan), and what the render task is given (a bundled slug, or a personal font's bytes).
import type { BlobStore } from '../blobs/types.ts';
import { ApiError } from '../domain/errors.ts';
import { BUNDLED_FONTS, bundledFontId } from '../store/bundled-fonts.ts';
import type { Store } from '../store/index.ts';
import type { Caller } from './auth.ts';
import { type RenderTask, RenderTaskError } from './render-pool.ts';

export async function checkFontAccess(store: Store, caller: Caller, fontId: string): Promise<void> {
  const font = await store.fonts.getVisible(caller.tenant.accountId, fontId);
  if (!font) throw new ApiError('FONT_NOT_FOUND', `the template's font ${fontId} no longer exists`);
  if (font.premium && !store.plans[caller.account.plan].premiumFonts) {
    throw new ApiError('FONT_ACCESS_DENIED', `the template's font ${font.name} is a premium font; the ${caller.account.plan} plan does not include premium fonts`);
  }
}

export async function taskFont(store: Store, blobs: BlobStore, accountId: string, fontId: string): Promise<RenderTask['font']> {
  const bundled = BUNDLED_FONTS.find((f) => bundledFontId(f.slug) === fontId);
  if (bundled) return { slug: bundled.slug };
  const record = await store.fonts.getVisible(accountId, fontId);
  const bytes = record && (await blobs.get(record.location));
  if (!record || !bytes) throw new RenderTaskError('render', `the template's font ${fontId} no longer exists`);
  return { id: record.id, bytes };
}

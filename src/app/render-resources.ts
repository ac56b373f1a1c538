// What a render needs beyond its specification: may the caller use the template's fonts (each
// exists; a premium font needs an eligible plan), and the bytes of the personal fonts and images
// the specification names (bundled fonts are read where the rendering happens).
import type { BlobStore } from '../blobs/types.ts';
import { ApiError } from '../domain/errors.ts';
import { bundledFont } from '../domain/fonts.ts';
import type { Tenant } from '../domain/tenant.ts';
import { type ImageResource, type RenderSpec, resourcesOf } from '../render/index.ts';
import type { Store } from '../store/index.ts';
import type { Caller } from './auth.ts';
import { type RenderRequest, RenderTaskError } from './ports/renderer.ts';

export async function checkFontAccess(store: Store, caller: Caller, fontId: string): Promise<void> {
  const font = await store.fonts.getVisible(caller.tenant.accountId, fontId);
  if (!font) throw new ApiError('FONT_NOT_FOUND', `the template's font ${fontId} no longer exists`);
  if (font.premium && !store.plans[caller.account.plan].premiumFonts) {
    throw new ApiError(
      'FONT_ACCESS_DENIED',
      `the template's font ${font.name} is a premium font; the ${caller.account.plan} plan does not include premium fonts`,
    );
  }
}

/** Personal fonts' and images' bytes of a specification; one gone since is a render failure. */
export async function renderResources(
  store: Store,
  blobs: BlobStore,
  tenant: Tenant,
  spec: RenderSpec,
): Promise<Pick<RenderRequest, 'fonts' | 'images'>> {
  const wanted = resourcesOf(spec);
  const fonts: RenderRequest['fonts'] = {};
  for (const id of wanted.fonts) {
    if (bundledFont(id)) continue;
    const record = await store.fonts.getVisible(tenant.accountId, id);
    const bytes = record && (await blobs.get(record.location));
    if (!record || !bytes) throw new RenderTaskError('render', `the template's font ${id} no longer exists`);
    fonts[id] = bytes;
  }
  const images: Record<string, ImageResource> = {};
  for (const id of wanted.images) {
    const record = await store.assets.get(tenant, id);
    const bytes = record && (await blobs.get(record.blobKey));
    if (!record || !bytes) throw new RenderTaskError('render', `image ${id} no longer exists`);
    images[id] = { type: record.type, bytes, width: record.width, height: record.height };
  }
  return { fonts, images };
}

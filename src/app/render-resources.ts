// What a render needs beyond its specification: may the caller use the template's fonts (each
// exists; a premium font needs an eligible plan), and the bytes of the personal fonts and images
// the specification names (bundled fonts are read where the rendering happens).
import type { BlobStore } from '../blobs/types.ts';
import { apiRefusal } from '../domain/errors.ts';
import { bundledFont, TRIAL_LICENSE } from '../domain/fonts.ts';
import type { Tenant } from '../domain/tenant.ts';
import { type ImageResource, type RenderSpec, resourcesOf } from '../render/index.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { Store } from '../store/index.ts';
import type { Caller } from './auth.ts';
import { type RenderRequest, RenderTaskError } from './ports/renderer.ts';

/** The names of the plans that include personal fonts: "Pro or Premium". */
export const personalFontPlans = (store: Pick<Store, 'plans'>) =>
  Object.values(store.plans)
    .filter((p) => p.premiumFonts)
    .map((p) => p.name)
    .join(' or ');

export async function checkFontAccess(store: Store, caller: Caller, fontId: string): Promise<void> {
  const font = await store.fonts.getVisible(caller.tenant.accountId, fontId);
  if (!font) throw apiRefusal('FONT_NOT_FOUND', `the template's font ${fontId} no longer exists`);
  const plan = store.plans[caller.account.plan];
  if (font.premium && !plan.premiumFonts) {
    throw apiRefusal(
      'FONT_ACCESS_DENIED',
      `the template's font ${font.name} is a premium font; the ${caller.account.plan} plan does not include premium fonts`,
    );
  }
  // A hand built on a plan without personal fonts: its test keys write with it, its live keys
  // once the plan includes personal fonts (docs/decisions.md, "A hand for every plan").
  if (font.license === TRIAL_LICENSE && caller.tenant.mode === 'live' && !plan.premiumFonts) {
    throw apiRefusal(
      'FONT_ACCESS_DENIED',
      `the template's font ${font.name} is a hand built on the ${plan.name} plan: test keys write with it; live keys need a plan that includes personal fonts (${personalFontPlans(store)}), which the account's owner can request in the dashboard`,
    );
  }
}

/**
 * Personal fonts' and images' bytes of a specification, each checked against the SHA-256 it was
 * stored with: one gone since, or whose bytes changed, is a render failure (never drawn from).
 * A blob store that cannot be reached passes on as it is (the job runs again later; a render is 503).
 */
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
    intact(`the template's font ${id}`, bytes, record.sha256);
    fonts[id] = bytes;
  }
  const images: Record<string, ImageResource> = {};
  for (const id of wanted.images) {
    const record = await store.assets.get(tenant, id);
    const bytes = record && (await blobs.get(record.blobKey));
    if (!record || !bytes) throw new RenderTaskError('render', `image ${id} no longer exists`);
    intact(`image ${id}`, bytes, record.sha256);
    images[id] = { type: record.type, bytes, width: record.width, height: record.height };
  }
  return { fonts, images };
}

/** Stored bytes must still be the ones uploaded. */
function intact(what: string, bytes: Uint8Array, sha256: string): void {
  if (sha256Hex(bytes) !== sha256)
    throw new RenderTaskError(
      'damaged',
      `${what} is damaged: its stored bytes no longer match the SHA-256 recorded at upload; upload it again`,
    );
}

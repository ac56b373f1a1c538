// Whether the fonts of a specification can draw all of its text, decided when a job is submitted
// (a job that would only fail a second later is refused with the characters named). Each font's
// character map is read once per process and kept: a font id's bytes never change.
import type { BlobStore } from '../blobs/types.ts';
import { apiRefusal } from '../domain/errors.ts';
import { bundledFont } from '../domain/fonts.ts';
import type { Tenant } from '../domain/tenant.ts';
import { readBundledFont } from '../lib/font-files.ts';
import { fontReader, type RenderSpec, resourcesOf, uncoveredCharacters } from '../render/index.ts';
import type { Store } from '../store/index.ts';

type Covers = (cp: number) => boolean;

/** Character maps kept; past this the oldest read is forgotten (personal fonts are many). */
const KEPT = 256;
const maps = new Map<string, Covers>();

async function coverageOf(
  store: Store,
  blobs: BlobStore,
  tenant: Tenant,
  id: string,
): Promise<Covers | null> {
  const kept = maps.get(id);
  if (kept) return kept;
  const bundled = bundledFont(id);
  let bytes: Uint8Array | null = null;
  if (bundled) bytes = readBundledFont(bundled);
  else {
    const record = await store.fonts.getVisible(tenant.accountId, id);
    bytes = record ? await blobs.get(record.location) : null;
  }
  if (!bytes) return null;
  const covers = (await fontReader()).fontCoverage(bytes);
  if (maps.size >= KEPT) maps.delete(maps.keys().next().value!);
  maps.set(id, covers);
  return covers;
}

/** Every string of the content: text, or the text of each block (ids and names are Latin letters every hand has). */
function textsOf(spec: RenderSpec): string[] {
  if ('text' in spec.content) return [spec.content.text];
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(spec.content.blocks);
  return out;
}

/**
 * Refuses, naming them, the characters none of the specification's fonts has (emoji, a script no
 * hand writes, a line separator, a byte order mark in the middle of the text). `field` is where
 * the text came from in the request.
 */
export async function checkCoverage(
  store: Store,
  blobs: BlobStore,
  tenant: Tenant,
  spec: RenderSpec,
  field: string,
): Promise<void> {
  const covers: Covers[] = [];
  for (const id of resourcesOf(spec).fonts) {
    const c = await coverageOf(store, blobs, tenant, id);
    if (c) covers.push(c);
  }
  const missing = new Set<string>();
  for (const text of textsOf(spec)) for (const m of uncoveredCharacters(text, covers)) missing.add(m);
  if (missing.size === 0) return;
  const list = [...missing];
  throw apiRefusal(
    'INVALID_REQUEST',
    `${field} holds ${list.length === 1 ? 'a character' : `${list.length} characters`} no font of the template has: ${list.slice(0, 10).join(', ')}${list.length > 10 ? ', …' : ''}`,
    { field },
  );
}

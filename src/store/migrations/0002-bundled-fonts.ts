// Registers the bundled handwriting fonts: metadata and the scripts computed from each cmap
// (less those a font has only in type).
import type { Kysely } from 'kysely';
import { sha256Hex } from '../../lib/ids.ts';
import { BUNDLED_FONTS, bundledFontId, handwrittenScripts } from '../../domain/fonts.ts';
import { readBundledFont } from '../../lib/font-files.ts';
import { fontReader } from '../../render/index.ts';
import type { Database } from '../schema.ts';

export function up(db: Kysely<Database>): Promise<void> {
  return registerBundledFonts(db);
}

/** Inserts every bundled font the table does not have yet (later migrations add new ones). */
export async function registerBundledFonts(db: Kysely<Database>): Promise<void> {
  const now = new Date().toISOString();
  const present = new Set(
    (await db.selectFrom('fonts').select('id').where('source', '=', 'bundled').execute()).map((r) => r.id),
  );
  for (const font of BUNDLED_FONTS) {
    if (present.has(bundledFontId(font.slug))) continue;
    const bytes = readBundledFont(font);
    const info = (await fontReader()).inspectFont(bytes);
    await db
      .insertInto('fonts')
      .values({
        id: bundledFontId(font.slug),
        account_id: null,
        name: font.name,
        family: info.family,
        premium: font.premium ? 1 : 0,
        license: font.license,
        scripts: JSON.stringify(handwrittenScripts(font, info.scripts)),
        glyph_count: info.glyphCount,
        codepoints: info.codepoints,
        source: 'bundled',
        location: font.module,
        sha256: sha256Hex(bytes),
        bytes: bytes.length,
        created_at: now,
      })
      .execute();
  }
}

// Registers the bundled handwriting fonts: metadata and the scripts computed from each cmap.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { sha256Hex } from '../../lib/ids.ts';
import { inspectFont } from '../../render/font-info.ts';
import { BUNDLED_FONTS, bundledFontId } from '../bundled-fonts.ts';
import type { Database } from '../schema.ts';

export async function up(db: Kysely<Database>): Promise<void> {
  const now = new Date().toISOString();
  for (const font of BUNDLED_FONTS) {
    const bytes = readFileSync(fileURLToPath(import.meta.resolve(font.module)));
    const info = inspectFont(new Uint8Array(bytes));
    await db
      .insertInto('fonts')
      .values({
        id: bundledFontId(font.slug),
        account_id: null,
        name: font.name,
        family: info.family,
        premium: font.premium ? 1 : 0,
        license: font.license,
        scripts: JSON.stringify(info.scripts),
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

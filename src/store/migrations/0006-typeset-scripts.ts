// A bundled font's scripts name only what it writes by hand: Aref Ruqaa's Latin letters are a
// book serif, so Latin leaves its list (the fonts registered before this knew no better).
import type { Kysely } from 'kysely';
import { BUNDLED_FONTS, bundledFontId } from '../../domain/fonts.ts';
import type { Database } from '../schema.ts';

export async function up(db: Kysely<Database>): Promise<void> {
  for (const font of BUNDLED_FONTS) {
    if (!font.typeset) continue;
    const row = await db
      .selectFrom('fonts')
      .select('scripts')
      .where('id', '=', bundledFontId(font.slug))
      .executeTakeFirst();
    if (!row) continue;
    const scripts = (JSON.parse(row.scripts) as string[]).filter((s) => !font.typeset!.includes(s));
    await db
      .updateTable('fonts')
      .set({ scripts: JSON.stringify(scripts) })
      .where('id', '=', bundledFontId(font.slug))
      .execute();
  }
}

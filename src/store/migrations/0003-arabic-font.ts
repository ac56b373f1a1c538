// Adds Aref Ruqaa, a Ruqʿah hand, so Arabic text has a bundled font to fall back on.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { registerBundledFonts } from './0002-bundled-fonts.ts';

export function up(db: Kysely<Database>): Promise<void> {
  return registerBundledFonts(db);
}

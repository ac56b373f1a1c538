// docs/handwriting.md shows every gallery case (test/goldens/gallery.json), each picture drawn by
// scripts/gallery.ts from its golden specification; none is missing and none is left over.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import t from 'tap';

const ROOT = new URL('../../', import.meta.url);
const gallery = JSON.parse(readFileSync(new URL('test/goldens/gallery.json', ROOT), 'utf8')) as {
  name: string;
}[];
const doc = readFileSync(new URL('docs/handwriting.md', ROOT), 'utf8');
const pictures = readdirSync(new URL('docs/gallery/', ROOT));

t.ok(gallery.length >= 40, `${gallery.length} gallery cases`);
for (const c of gallery) {
  const file = `${c.name.replace(/^gallery-/, '')}.png`;
  t.ok(existsSync(new URL(`docs/gallery/${file}`, ROOT)), `${file} is drawn`);
  t.ok(doc.includes(`(gallery/${file})`), `${file} is shown in docs/handwriting.md`);
  t.ok(existsSync(new URL(`test/goldens/expected/${c.name}.png`, ROOT)), `${c.name} is a golden`);
}
t.same(
  pictures.filter((p) => !gallery.some((c) => `${c.name.replace(/^gallery-/, '')}.png` === p)),
  [],
  'no picture in docs/gallery without its case',
);

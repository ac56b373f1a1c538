// `scriptorium admin font build`: photos of a filled sample sheet (both pages of the basic A4
// sheet written in Kalam through the engine, photographed as a phone would) become a personal
// font of an account, run as a real process against a real store. A picture of no sheet and a
// picture over the asset limits are refused naming the scan, and add nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { sheetLayout } from '../../src/foundry/index.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import { png } from '../helpers/images.ts';
import { sheetPhotos } from '../helpers/sheet-photo.ts';

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-hand-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATA_DIR: join(dir, 'data') };
const json = cliJson(env);

const photos = await sheetPhotos(sheetLayout('basic', 'a4'), bundledFontSource('kalam'));
const files = photos.map((p, i) => {
  const file = join(dir, `page${i + 1}.jpg`);
  writeFileSync(file, p.bytes);
  return file;
});
const notSheet = join(dir, 'grey.png');
writeFileSync(notSheet, png(600, 800));

await json(['migrate']);
const acc = await json(['admin', 'account', 'create', '--name', 'Hand', '--plan', 'basic']);
const personal = async () =>
  (await json(['admin', 'font', 'list', '--account', acc.id])).data.filter(
    (f: { accountId: string | null }) => f.accountId === acc.id,
  );

t.test('photos of both pages become a personal font of the account', async (t) => {
  const built = await json([
    'admin',
    'font',
    'build',
    '--account',
    acc.id,
    '--name',
    'My hand',
    '--scan',
    files[0]!,
    '--scan',
    files[1]!,
  ]);
  t.match(built.font, { id: /^font_/, name: 'My hand', accountId: acc.id, scripts: ['Latin'] });
  t.equal(built.build.characters.length, 86, 'every character of the basic set');
  t.same(built.build.warnings, [], 'no warning');
  t.same(
    (await personal()).map((f: { id: string }) => f.id),
    [built.font.id],
    'listed among the account’s fonts',
  );
});

t.test('one page: built, and the missing page named; the id printed first', async (t) => {
  const r = await cli(
    ['admin', 'font', 'build', '--account', acc.id, '--name', 'Half', '--scan', files[0]!],
    env,
  );
  t.equal(r.code, 0, r.stderr);
  const [id, summary, warning] = r.stdout.trim().split('\n');
  t.match(id, /^font_\w+$/, 'the font id on the first line');
  t.match(summary, /^built Half for acc_\w+: \d+ characters, \d+ drawings from 1 page$/);
  t.match(warning, /^warning: page 2 of 2 was not given/);
});

t.test('a picture of no sheet, or over the limits, is refused naming it, and adds nothing', async (t) => {
  const before = (await personal()).length;
  const none = await cli(
    ['admin', 'font', 'build', '--account', acc.id, '--name', 'x', '--scan', files[0]!, '--scan', notSheet],
    env,
  );
  t.not(none.code, 0, 'exits non-zero');
  t.match(none.stderr, /scan 2: the four black corner squares of a sample sheet were not found/);
  const big = await cli(['admin', 'font', 'build', '--account', acc.id, '--name', 'x', '--scan', files[0]!], {
    ...env,
    ASSET_MAX_PIXELS: '1000000',
  });
  t.not(big.code, 0, 'exits non-zero');
  t.match(big.stderr, /scan 1: .*1000000/);
  t.equal((await personal()).length, before, 'no font added');
});

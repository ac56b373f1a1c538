// A hand's pictures over the dashboard's API against a real server: twelve uploads of one page at
// once keep one picture of that page and leave no other blob behind; a refused picture keeps
// nothing; a page photographed upside down is turned and read; pictures have an hourly limit of
// their own; deleting the hand deletes every one of its blobs.
import jpeg from 'jpeg-js';
import t from 'tap';
import { sheetLayout } from '../../src/foundry/index.ts';
import { dashboardCall, signUpOverHttp } from '../helpers/dashboard-api.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import { png } from '../helpers/images.ts';
import { sheetPhotos } from '../helpers/sheet-photo.ts';
import { startTestServer } from '../helpers/server.ts';

const PER_HOUR = 16;
const server = await startTestServer(t, { handPicturesPerHour: PER_HOUR });
const s = await signUpOverHttp(server, 'hand@example.com');
await server.ctx.store.accounts.setPlan(s.account, 'pro', 30, new Date());
const layout = sheetLayout('basic', 'a4');

/** A JPEG turned over: upside down, as a page photographed the wrong way round. */
function turnedOver(bytes: Uint8Array): Uint8Array {
  const { width, height, data } = jpeg.decode(bytes, { useTArray: true });
  const pixels = data.length / 4;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < pixels; i++) out.set(data.subarray(i * 4, i * 4 + 4), (pixels - 1 - i) * 4);
  return new Uint8Array(jpeg.encode({ data: out, width, height }, 80).data);
}

/** Every blob kept under the hands' prefix. */
async function blobs(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of server.ctx.blobs.list('hands/')) keys.push(key);
  return keys.sort();
}

const upload = (path: string, bytes: Uint8Array, type = 'image/jpeg') =>
  dashboardCall(server, s, 'POST', path, bytes, type);

t.test('one picture a page, nothing left behind, an hourly limit, all gone with the hand', async (t) => {
  const [page1, page2] = (await sheetPhotos(layout, bundledFontSource('kalam'))).map((p) => p.bytes);
  const upsideDown = turnedOver(page1!);
  const made = await upload('/hands?mode=live&name=My%20hand', page1!);
  t.equal(made.status, 201, JSON.stringify(made.body).slice(0, 300));
  const id: string = made.body.id;

  const twelve = await Promise.all(
    Array.from({ length: 12 }, () => upload(`/hands/${id}/pictures?mode=live`, page2!)),
  );
  t.same(
    twelve.map((r) => r.status),
    Array(12).fill(201),
    'twelve uploads of page 2 at once: each taken',
  );
  const hand = (await dashboardCall(server, s, 'GET', '/hands')).body.data[0];
  t.same(
    hand.pictures.map((p: { page: number }) => p.page).sort(),
    [1, 2],
    'the hand keeps one picture of each page',
  );
  t.equal((await blobs()).length, 2, 'and storage holds those two, no more');

  const grey = await upload(`/hands/${id}/pictures?mode=live`, png(400, 300), 'image/png');
  t.equal(grey.status, 400, 'a picture that is no page is refused');
  t.equal((await blobs()).length, 2, 'and leaves no blob');

  const turned = await upload(`/hands/${id}/pictures?mode=live`, upsideDown!);
  t.equal(
    turned.status,
    201,
    `a page photographed upside down is turned and read: ${turned.body?.error?.message ?? ''}`,
  );
  t.same(turned.body.pictures.map((p: { page: number }) => p.page).sort(), [1, 2], 'it replaced page 1');
  t.equal((await blobs()).length, 2, 'the picture it replaced is gone from storage');

  // 1 + 12 + 1 + 1 pictures so far: the hour allows one more.
  t.equal((await upload(`/hands/${id}/pictures?mode=live`, page2!)).status, 201);
  const over = await upload(`/hands/${id}/pictures?mode=live`, page2!);
  t.equal(over.status, 429, `picture ${PER_HOUR + 1} of the hour: 429`);
  t.match(over.body.error, {
    code: 'RATE_LIMIT_EXCEEDED',
    reason: 'hand-pictures',
    message: /at most 16 pictures given to hands an hour/,
  });
  t.equal((await blobs()).length, 2);

  const gone = await dashboardCall(server, s, 'POST', `/hands/${id}/delete`);
  t.equal(gone.status, 200);
  t.same(await blobs(), [], 'deleting the hand deletes all its pictures');
});

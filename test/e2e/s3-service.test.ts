// The service with its blobs on S3 (s3rver over HTTP): uploads land in the bucket, a job reads
// its image from there, writes its PDF there, and the download streams from S3; previews and
// personal fonts live there too, and the sweeper deletes expired outputs and orphans from it.
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { addFont, importTemplate } from '../../src/app/admin.ts';
import { S3BlobStore } from '../../src/blobs/s3-blob-store.ts';
import { png } from '../helpers/images.ts';
import { startS3 } from '../helpers/s3.ts';
import { call, startTestServer } from '../helpers/server.ts';

const s3 = await startS3(t);
const bucket = `service-${process.pid}`;
const server = await startTestServer(t, {
  s3Endpoint: s3.endpoint,
  s3AccessKey: s3.accessKey,
  s3SecretKey: s3.secretKey,
  s3Region: s3.region,
  s3Bucket: bucket,
});
const direct = new S3BlobStore({ ...s3, bucket });

t.test('assets, job inputs and outputs live in the bucket; downloads stream from it', async (t) => {
  const a = await server.tenant();
  const up = await call(t, server, 'POST', '/assets', {
    key: a.live,
    raw: png(90, 60),
    headers: { 'content-type': 'image/png' },
  });
  t.equal(up.status, 201);
  const keys: string[] = [];
  for await (const k of direct.list('assets/')) keys.push(k);
  t.equal(keys.length, 1, 'the upload is an object in the bucket');
  const post = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: {
      templateId: a.templates.live.legacy,
      content: [
        { type: 'heading', level: 1, text: 'On S3' },
        { type: 'image', assetId: up.body.id, width: '50%' },
      ],
    },
  });
  t.equal(post.status, 202);
  let job = post.body;
  for (let i = 0; i < 300 && (job.status === 'queued' || job.status === 'processing'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = (await call(t, server, 'GET', `/generations/${post.body.id}`, { key: a.live })).body;
  }
  t.equal(job.status, 'completed', JSON.stringify(job.error));
  const outputs: string[] = [];
  for await (const k of direct.list('outputs/')) outputs.push(k);
  t.equal(outputs.length, 1, 'the PDF is an object in the bucket');
  const stored = await direct.get(outputs[0]!);
  const res = await fetch(`${server.base}/api/v1/generations/${post.body.id}/download`, {
    headers: { authorization: `Bearer ${a.live}` },
  });
  const body = new Uint8Array(await res.arrayBuffer());
  t.equal(res.status, 200);
  t.equal(Number(res.headers.get('content-length')), stored!.length, 'Content-Length from the object');
  t.same(Buffer.from(body), Buffer.from(stored!), 'the download is the stored object');
});

const objects = async (prefix: string) => {
  const keys: string[] = [];
  for await (const k of direct.list(prefix)) keys.push(k);
  return keys;
};

async function until(t: Test, key: string, id: string) {
  let job = (await call(t, server, 'GET', `/generations/${id}`, { key })).body;
  for (let i = 0; i < 300 && (job.status === 'queued' || job.status === 'processing'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = (await call(t, server, 'GET', `/generations/${id}`, { key })).body;
  }
  return job;
}

t.test('previews and personal fonts live in the bucket', async (t) => {
  const a = await server.tenant();
  const post = await call(t, server, 'POST', '/previews', {
    key: a.live,
    body: { templateId: a.templates.live.simple, text: 'A preview kept on S3.' },
  });
  t.equal(post.status, 202);
  t.equal((await until(t, a.live, post.body.id)).status, 'completed');
  t.equal(
    (await objects(`previews/${a.accountId}/${post.body.id}/`)).length,
    1,
    'the preview pages are an object in the bucket',
  );
  const images = await call(t, server, 'GET', `/generations/${post.body.id}/preview`, { key: a.live });
  t.equal(images.status, 200);
  t.equal(images.body.pages.length, 1, 'read back from the bucket');

  const bytes = readFileSync(
    new URL('../../node_modules/@expo-google-fonts/kalam/300Light/Kalam_300Light.ttf', import.meta.url),
  );
  const mine = await addFont(server.ctx, { bytes, name: 'My hand', account: a.accountId, premium: false });
  t.same(Buffer.from((await direct.get(mine.location))!), bytes, 'the font file is an object in the bucket');
  const model = JSON.parse(
    readFileSync(new URL('../../src/app/demo/letter.template.json', import.meta.url), 'utf8'),
  );
  const tpl = await importTemplate(server.ctx, {
    account: a.accountId,
    mode: 'live',
    json: JSON.stringify({ ...model, style: { ...model.style, fontId: mine.id } }),
  });
  const res = await fetch(`${server.base}/api/v1/renders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.live}`, 'content-type': 'application/json' },
    body: JSON.stringify({ templateId: tpl.id, text: 'In my own hand', format: 'svg' }),
  });
  t.equal(res.status, 200, 'a render in the personal font, read from the bucket');
  t.match(await res.text(), /<svg/);
});

t.test('the sweeper deletes expired outputs and orphans from the bucket', async (t) => {
  const a = await server.tenant();
  const post = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.simple, text: 'Kept for a while.' },
  });
  t.equal((await until(t, a.live, post.body.id)).status, 'completed');
  const job = (await server.ctx.store.generations.find(post.body.id))!;
  t.same(await objects(`outputs/${a.accountId}/`), [job.blobKey], 'the PDF is in the bucket');
  await server.ctx.store.db.kysely
    .updateTable('generations')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', job.id)
    .execute();
  const orphan = `outputs/${a.accountId}/${job.id}/9.pdf`;
  await direct.put(orphan, new Uint8Array([1, 2, 3]), 'application/pdf');
  const swept = await server.service.sweep();
  t.ok(swept.expired >= 1 && swept.orphans >= 1, `swept ${JSON.stringify(swept)}`);
  t.same(
    await objects(`outputs/${a.accountId}/`),
    [],
    'the expired PDF and the orphan are gone from the bucket',
  );
  t.equal((await call(t, server, 'GET', `/generations/${job.id}/download`, { key: a.live })).status, 410);
});

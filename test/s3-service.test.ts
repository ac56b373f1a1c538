// The service with its blobs on S3 (s3rver over HTTP): uploads land in the bucket, a job reads
// its image from there, writes its PDF there, and the download streams from S3.
import t from 'tap';
import { S3BlobStore } from '../src/blobs/s3-blob-store.ts';
import { png } from './helpers/images.ts';
import { startS3 } from './helpers/s3.ts';
import { call, startTestServer } from './helpers/server.ts';

const s3 = await startS3(t);
const bucket = `service-${process.pid}`;
const server = await startTestServer(t, { s3Endpoint: s3.endpoint, s3AccessKey: s3.accessKey, s3SecretKey: s3.secretKey, s3Region: s3.region, s3Bucket: bucket });
const direct = new S3BlobStore({ ...s3, bucket });

t.test('assets, job inputs and outputs live in the bucket; downloads stream from it', async (t) => {
  const a = await server.tenant();
  const up = await call(t, server, 'POST', '/assets', { key: a.live, raw: png(90, 60), headers: { 'content-type': 'image/png' } });
  t.equal(up.status, 201);
  const keys: string[] = [];
  for await (const k of direct.list('assets/')) keys.push(k);
  t.equal(keys.length, 1, 'the upload is an object in the bucket');
  const post = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.legacy, content: [{ type: 'heading', level: 1, text: 'On S3' }, { type: 'image', assetId: up.body.id, width: '50%' }] },
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
  const res = await fetch(`${server.base}/api/v1/generations/${post.body.id}/download`, { headers: { authorization: `Bearer ${a.live}` } });
  const body = new Uint8Array(await res.arrayBuffer());
  t.equal(res.status, 200);
  t.equal(Number(res.headers.get('content-length')), stored!.length, 'Content-Length from the object');
  t.same(Buffer.from(body), Buffer.from(stored!), 'the download is the stored object');
});

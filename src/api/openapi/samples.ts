// What the served reference shows beside each operation: a curl line and the same call with the
// client (x-codeSamples), examples of bodies, the tags, and the quickstart at its top. A test runs
// every curl line against a real server, so the samples cannot drift from the API.

const AUTH = '-H "Authorization: Bearer $SCRIPTORIUM_API_KEY"';
const JSON_HEADER = "-H 'Content-Type: application/json'";
const at = (path: string) => `"$SCRIPTORIUM_URL/api/v1${path}"`;
const CLIENT_SETUP = `import { Scriptorium } from 'scriptorium/client';

const client = new Scriptorium(); // reads SCRIPTORIUM_API_KEY and SCRIPTORIUM_URL
`;

export const EXAMPLE_IDS = {
  template: 'tpl_4fRkX9mQ2bLc8ZtW1nYpDs',
  generation: 'gen_7HqLm2XcV9bN4kTz0aWeRf',
  asset: 'asset_2mPq8ZrT5vXc1LkN7bWeYh',
  batch: 'bat_3kTn8WqZ1xLm5VbR9cYdPe',
  font: 'font_5gHs2JqW8mNc3XvB7tLpKe',
} as const;

export interface Sample {
  operationId: string;
  curl: string;
  /** The call with the client, after its setup lines. */
  client: string;
}

const GENERATION_BODY = `{"templateId":"${EXAMPLE_IDS.template}","text":"Dear Margaret, thank you for the lovely afternoon.","metadata":{"order":"A-17"}}`;

export const SAMPLES: readonly Sample[] = [
  {
    operationId: 'listTemplates',
    curl: `curl -s ${at('/templates?limit=10')} ${AUTH}`,
    client: `const page = await client.templates.list({ limit: 10 });
for await (const template of client.templates.all()) console.log(template.id, template.name);`,
  },
  {
    operationId: 'getTemplate',
    curl: `curl -s ${at(`/templates/${EXAMPLE_IDS.template}`)} ${AUTH}`,
    client: `const template = await client.templates.get('${EXAMPLE_IDS.template}');`,
  },
  {
    operationId: 'listFonts',
    curl: `curl -s ${at('/fonts')} ${AUTH}`,
    client: `const fonts = await client.fonts.list();
const usable = fonts.data.filter((f) => f.usable);`,
  },
  {
    operationId: 'downloadFontFile',
    curl: `curl -s ${at(`/fonts/${EXAMPLE_IDS.font}/file?format=otf`)} ${AUTH} -o my-hand.otf`,
    client: `import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const font = await client.fonts.file('${EXAMPLE_IDS.font}', { format: 'woff2' });
await pipeline(Readable.fromWeb(font.body), createWriteStream('my-hand.woff2'));`,
  },
  {
    operationId: 'getUsage',
    curl: `curl -s ${at('/usage?from=2026-11-01&to=2026-12-01')} ${AUTH}`,
    client: `const usage = await client.usage.get({ from: '2026-11-01', to: '2026-12-01' });
console.log(usage.creditsSpent, usage.balance.availableSheets);`,
  },
  {
    operationId: 'uploadAsset',
    curl: `curl -s -X POST ${at('/assets')} ${AUTH} -H 'Content-Type: image/png' -H 'Idempotency-Key: logo-v1' --data-binary @logo.png`,
    client: `import { readFile } from 'node:fs/promises';

const asset = await client.assets.upload(await readFile('logo.png'), { idempotencyKey: 'logo-v1' });
console.log(asset.id, asset.width, asset.height);`,
  },
  {
    operationId: 'createGeneration',
    curl: `curl -s -X POST ${at('/generations')} ${AUTH} ${JSON_HEADER} \\
  -H 'Idempotency-Key: order-A-17' \\
  -d '${GENERATION_BODY}'`,
    client: `const job = await client.generations.create(
  { templateId: '${EXAMPLE_IDS.template}', text: 'Dear Margaret, …', metadata: { order: 'A-17' } },
  { idempotencyKey: 'order-A-17' },
);
// or all at once: submit, wait, download
const { bytes } = await client.generate({ templateId: '${EXAMPLE_IDS.template}', text: 'Dear Margaret, …' }, { to: 'letter.pdf' });`,
  },
  {
    operationId: 'listGenerations',
    curl: `curl -s ${at('/generations?status=completed&createdFrom=2026-11-01&limit=20')} ${AUTH}`,
    client: `const page = await client.generations.list({ status: 'completed', createdFrom: '2026-11-01', limit: 20 });
for await (const job of client.generations.all({ kind: 'pdf' })) console.log(job.id, job.status);`,
  },
  {
    operationId: 'getGeneration',
    curl: `curl -s ${at(`/generations/${EXAMPLE_IDS.generation}`)} ${AUTH}`,
    client: `const job = await client.generations.get('${EXAMPLE_IDS.generation}');
// or wait politely until it ends (honours RateLimit and Retry-After)
const done = await client.generations.waitForCompletion('${EXAMPLE_IDS.generation}', { timeoutMs: 120_000 });`,
  },
  {
    operationId: 'downloadGeneration',
    curl: `curl -s -o letter.pdf ${at(`/generations/${EXAMPLE_IDS.generation}/download`)} ${AUTH}`,
    client: `import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const pdf = await client.generations.download('${EXAMPLE_IDS.generation}');
await pipeline(Readable.fromWeb(pdf.body), createWriteStream('letter.pdf'));`,
  },
  {
    operationId: 'cancelGeneration',
    curl: `curl -s -X POST ${at(`/generations/${EXAMPLE_IDS.generation}/cancel`)} ${AUTH}`,
    client: `const cancelled = await client.generations.cancel('${EXAMPLE_IDS.generation}');`,
  },
  {
    operationId: 'createPreview',
    curl: `curl -s -X POST ${at('/previews')} ${AUTH} ${JSON_HEADER} \\
  -d '{"templateId":"${EXAMPLE_IDS.template}","text":"Dear Margaret, thank you for the lovely afternoon."}'`,
    client: `const preview = await client.previews.create({ templateId: '${EXAMPLE_IDS.template}', text: 'Dear Margaret, …' });
await client.generations.waitForCompletion(preview.id);`,
  },
  {
    operationId: 'getPreview',
    curl: `curl -s ${at(`/generations/${EXAMPLE_IDS.generation}/preview`)} ${AUTH}`,
    client: `const { pages } = await client.previews.get('${EXAMPLE_IDS.generation}');
const firstPage = Buffer.from(pages[0].data, 'base64'); // a PNG`,
  },
  {
    operationId: 'render',
    curl: `curl -s -o hello.png -X POST ${at('/renders')} ${AUTH} ${JSON_HEADER} \\
  -d '{"templateId":"${EXAMPLE_IDS.template}","text":"Hello there","format":"png","fontSize":28}'`,
    client: `const png = await client.renders.create({ templateId: '${EXAMPLE_IDS.template}', text: 'Hello there', format: 'png', fontSize: 28 });
const svg = await client.renders.create({ templateId: '${EXAMPLE_IDS.template}', text: 'Hello there', format: 'svg' });`,
  },
  {
    operationId: 'createBatch',
    curl: `curl -s -X POST ${at('/batches')} ${AUTH} ${JSON_HEADER} \\
  -H 'Idempotency-Key: thanks-november' \\
  -d '{"templateId":"${EXAMPLE_IDS.template}","csv":"text,metadata.name\\nDear Margaret: thank you for the tea.,margaret\\nDear Tom: thank you for the flowers.,tom\\n","merge":true}'`,
    client: `import { readFile } from 'node:fs/promises';

const batch = await client.batches.create(
  { templateId: '${EXAMPLE_IDS.template}', csv: await readFile('rows.csv', 'utf8'), merge: true },
  { idempotencyKey: 'thanks-november' },
);
const done = await client.batches.wait(batch.id, { onProgress: (b) => console.log(b.rows.completed, '/', b.rows.total) });
await client.batches.download(done.id, { to: 'letters.zip', name: 'name' });`,
  },
  {
    operationId: 'listBatches',
    curl: `curl -s ${at('/batches?limit=10')} ${AUTH}`,
    client: `const page = await client.batches.list({ limit: 10 });`,
  },
  {
    operationId: 'getBatch',
    curl: `curl -s ${at(`/batches/${EXAMPLE_IDS.batch}`)} ${AUTH}`,
    client: `const batch = await client.batches.get('${EXAMPLE_IDS.batch}');
console.log(batch.status, batch.rows.completed, batch.rows.failed);`,
  },
  {
    operationId: 'listBatchRows',
    curl: `curl -s ${at(`/batches/${EXAMPLE_IDS.batch}/rows?status=failed`)} ${AUTH}`,
    client: `for await (const row of client.batches.rows('${EXAMPLE_IDS.batch}', { status: 'failed' })) console.log(row.row, row.error);`,
  },
  {
    operationId: 'cancelBatch',
    curl: `curl -s -X POST ${at(`/batches/${EXAMPLE_IDS.batch}/cancel`)} ${AUTH}`,
    client: `const batch = await client.batches.cancel('${EXAMPLE_IDS.batch}');`,
  },
  {
    operationId: 'downloadBatch',
    curl: `curl -s -o letters.zip ${at(`/batches/${EXAMPLE_IDS.batch}/download?name=name`)} ${AUTH}`,
    client: `await client.batches.download('${EXAMPLE_IDS.batch}', { to: 'letters.zip', name: 'name' });`,
  },
  {
    operationId: 'mergeBatch',
    curl: `curl -s -o letters.pdf ${at(`/batches/${EXAMPLE_IDS.batch}/merged`)} ${AUTH}`,
    client: `await client.batches.merged('${EXAMPLE_IDS.batch}', { to: 'letters.pdf' });`,
  },
];

/** The x-codeSamples of an operation (Redoc shows them beside it). */
export function codeSamples(operationId: string): { lang: string; label: string; source: string }[] {
  const s = SAMPLES.find((x) => x.operationId === operationId);
  if (!s) throw new Error(`no code samples for ${operationId}`);
  return [
    { lang: 'Shell', label: 'curl', source: s.curl },
    { lang: 'TypeScript', label: 'Client', source: `${CLIENT_SETUP}\n${s.client}` },
  ];
}

export const TAGS = [
  {
    name: 'Generations',
    description: 'PDF jobs of up to 200 pages: submit, poll (or hear by webhook), download, cancel.',
  },
  {
    name: 'Batches',
    description:
      'Extension: thousands of documents of one template in one request (JSON rows or CSV), each row its own job, seed and charge; one ZIP or one merged PDF out.',
  },
  { name: 'Previews', description: 'Watermarked PNGs of the first four pages, free of charge.' },
  { name: 'Renders', description: 'One SVG or PNG image in the answer, for captions and messages.' },
  { name: 'Templates', description: 'The styles and structures built in the dashboard; the API reads them.' },
  { name: 'Fonts', description: 'Metadata of the shared and personal handwriting fonts.' },
  { name: 'Assets', description: 'Private PNG and JPEG images for templates and documents.' },
  { name: 'Usage', description: 'Counts, sheets and the balance.' },
  { name: 'Webhooks', description: 'Events sent to your endpoints when jobs end (docs/webhooks.md).' },
] as const;

/** The quickstart at the top of the reference (Markdown). */
export const QUICKSTART = `Handwriting-styled PDFs (asynchronous jobs), SVG and PNG images (synchronous), previews, templates, fonts, assets and usage.

## Quickstart

A server started with \`npm start\` on an empty store creates a demo account and prints a **test key** (\`hw_test_…\`) and template ids: test keys spend test sheets only.

\`\`\`sh
export SCRIPTORIUM_URL=http://127.0.0.1:8080 SCRIPTORIUM_API_KEY=hw_test_…
curl -s -X POST "$SCRIPTORIUM_URL/api/v1/generations" -H "Authorization: Bearer $SCRIPTORIUM_API_KEY" \\
  -H 'Content-Type: application/json' -d '{"templateId":"tpl_…","text":"Dear friend, …"}'
curl -s "$SCRIPTORIUM_URL/api/v1/generations/gen_…" -H "Authorization: Bearer $SCRIPTORIUM_API_KEY"   # until "completed"
curl -s -o letter.pdf "$SCRIPTORIUM_URL/api/v1/generations/gen_…/download" -H "Authorization: Bearer $SCRIPTORIUM_API_KEY"
\`\`\`

The same with the typed client (\`scriptorium/client\`, Node 20, no dependencies):

\`\`\`ts
${CLIENT_SETUP}
const { job, bytes } = await client.generate({ templateId: 'tpl_…', text: 'Dear friend, …' }, { to: 'letter.pdf' });
console.log(\`\${job.pages} pages, \${job.creditsSpent} sheets, \${bytes} bytes\`);
\`\`\`

Or from a shell: \`scriptorium generate --template tpl_… --text-file letter.txt -o letter.pdf\`.

**Limits.** 10 requests a minute per key (polling and downloads count; the \`RateLimit\` header says what is left), 2 unfinished jobs per account. Poll about every 10 seconds, or register a **webhook** and hear of every job's end, signed with HMAC-SHA256.

**Retries.** Send an \`Idempotency-Key\` with \`POST /generations\`, \`/previews\` and \`/assets\`: a retry with the same key and body gets the first answer instead of a second job (the client does this by itself).

**Errors** are \`{ "error": { "code", "message", "requestId", "field"? } }\`; quote the \`requestId\` to support.
`;

// The demo start: on an empty embedded store, an account with a test key, a test balance and
// one template of each kind, so a newcomer can send a request a minute after cloning.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { packageFile } from '../lib/package-files.ts';
import { hashPassword } from '../lib/password.ts';
import { type AdminDeps, createAccount, createKey, importTemplate, topUp } from './admin.ts';
import { uploadAsset } from './assets.ts';

/**
 * The example templates (src/app/demo): a handwritten letter (simple text), lecture notes with a
 * list and a table (structured), a greeting card with a picture in a column (structured), an
 * envelope with its address block (structured, DL), a
 * legacy Document v1 template, and a caption sized for POST /renders (a strip of 1200 x 240 px, not
 * a sheet). Each has a request input beside it (`<name>.example.json`).
 */
export const EXAMPLES = ['letter', 'notes', 'card', 'envelope', 'document', 'caption'] as const;
export type ExampleName = (typeof EXAMPLES)[number];
/** Images the examples place, by file name in src/app/demo; the JSON says `"asset:<file>"`. */
export const EXAMPLE_IMAGES = ['meadow.png'] as const;

const demoFile = (name: string) => packageFile('src', 'app', 'demo', name);

/** An example's template JSON and input, with `"asset:<file>"` turned into the given asset ids. */
export function readExample(
  name: ExampleName,
  assetIds: Record<string, string>,
): { template: string; input: Record<string, unknown> } {
  const resolve = (json: string) =>
    json.replace(/"asset:([\w.-]+)"/g, (_, file: string) =>
      JSON.stringify(assetIds[file] ?? `asset:${file}`),
    );
  return {
    template: resolve(readFileSync(demoFile(`${name}.template.json`), 'utf8')),
    input: JSON.parse(resolve(readFileSync(demoFile(`${name}.example.json`), 'utf8'))),
  };
}

export function exampleImage(file: string): Buffer {
  return readFileSync(demoFile(file));
}

export interface Demo {
  accountId: string;
  key: string;
  templates: { id: string; name: string; kind: string; example: ExampleName }[];
  /** Uploaded example images: file name → asset id. */
  assets: Record<string, string>;
  /** The dashboard's demo login, owner of the account; the password is shown once. */
  login: { email: string; password: string };
}

export const DEMO_EMAIL = 'demo@scriptorium.local';

/** Creates the demo unless the store already has an account; returns null when it did nothing. */
export async function seedDemo(d: AdminDeps): Promise<Demo | null> {
  if ((await d.store.accounts.count()) > 0) return null;
  const account = await createAccount(d, { name: 'Demo', plan: 'pro', period: 30 });
  const { key } = await createKey(d, { account: account.id, mode: 'test', name: 'demo key' });
  const password = randomBytes(12).toString('base64url');
  await d.store.users.addMember({
    email: DEMO_EMAIL,
    name: 'Demo',
    passwordHash: await hashPassword(password),
    accountId: account.id,
    role: 'owner',
    now: d.now(),
  });
  await topUp(d, { account: account.id, sheets: 1000, mode: 'test' });
  const tenant = { accountId: account.id, mode: 'test' as const };
  const assetIds: Record<string, string> = {};
  for (const file of EXAMPLE_IMAGES)
    assetIds[file] = (await uploadAsset(d, tenant, exampleImage(file), 'image/png')).id;
  const templates = [];
  for (const name of EXAMPLES) {
    const t = await importTemplate(d, {
      account: account.id,
      mode: 'test',
      json: readExample(name, assetIds).template,
      source: `${name}.template.json`,
    });
    templates.push({ id: t.id, name: t.name, kind: t.kind, example: name });
  }
  return { accountId: account.id, key, templates, assets: assetIds, login: { email: DEMO_EMAIL, password } };
}

/** What the start command prints: the key (shown once) and a request ready to paste. */
export function demoBanner(demo: Demo, baseUrl: string): string {
  const simple = demo.templates.find((t) => t.kind === 'simple')!;
  return [
    'Created a demo account (test mode: nothing is billed for real).',
    `  account   ${demo.accountId}`,
    `  API key   ${demo.key}   (shown once; keep it)`,
    `  dashboard ${baseUrl}/dashboard   sign in as ${demo.login.email} with ${demo.login.password}   (shown once)`,
    ...demo.templates.map(
      (t) =>
        `  template  ${t.id}  ${t.kind.padEnd(10)} ${t.name} (input: src/app/demo/${t.example}.example.json)`,
    ),
    ...Object.entries(demo.assets).map(([file, id]) => `  image     ${id}  ${file}`),
    '',
    'Try it:',
    `  curl -s -X POST ${baseUrl}/api/v1/generations \\`,
    `    -H 'Authorization: Bearer ${demo.key}' -H 'Content-Type: application/json' \\`,
    `    -d '{"templateId":"${simple.id}","text":"Dear friend, this letter was written by hand."}'`,
    '',
    'Structured templates take `data`, the Document v1 template `content`; each example input is a body',
    'for POST /generations with its templateId added ("asset:meadow.png" stands for the image above).',
  ].join('\n');
}

// The demo start: on an empty embedded store, an account with a test key, a test balance and
// one template of each kind, so a newcomer can send a request a minute after cloning.
import { readFileSync } from 'node:fs';
import { type AdminDeps, createAccount, createKey, importTemplate, topUp } from './admin.ts';

const DEMO_TEMPLATES = ['letter', 'notes', 'document'] as const;

export interface Demo {
  accountId: string;
  key: string;
  templates: { id: string; name: string; kind: string }[];
}

/** Creates the demo unless the store already has an account; returns null when it did nothing. */
export async function seedDemo(d: AdminDeps): Promise<Demo | null> {
  if ((await d.store.accounts.count()) > 0) return null;
  const account = await createAccount(d, { name: 'Demo', plan: 'pro', period: 30 });
  const { key } = await createKey(d, { account: account.id, mode: 'test', name: 'demo key' });
  await topUp(d, { account: account.id, sheets: 1000, mode: 'test' });
  const templates = [];
  for (const name of DEMO_TEMPLATES) {
    const json = readFileSync(new URL(`./demo/${name}.template.json`, import.meta.url), 'utf8');
    const t = await importTemplate(d, { account: account.id, mode: 'test', json, source: `${name}.template.json` });
    templates.push({ id: t.id, name: t.name, kind: t.kind });
  }
  return { accountId: account.id, key, templates };
}

/** What the start command prints: the key (shown once) and a request ready to paste. */
export function demoBanner(demo: Demo, baseUrl: string): string {
  const simple = demo.templates.find((t) => t.kind === 'simple')!;
  return [
    'Created a demo account (test mode: nothing is billed for real).',
    `  account   ${demo.accountId}`,
    `  API key   ${demo.key}   (shown once; keep it)`,
    ...demo.templates.map((t) => `  template  ${t.id}  ${t.kind.padEnd(10)} ${t.name}`),
    '',
    'Try it:',
    `  curl -s -X POST ${baseUrl}/api/v1/generations \\`,
    `    -H 'Authorization: Bearer ${demo.key}' -H 'Content-Type: application/json' \\`,
    `    -d '{"templateId":"${simple.id}","text":"Dear friend, this letter was written by hand."}'`,
  ].join('\n');
}

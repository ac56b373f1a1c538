// Keys that reach an object's prototype (`__proto__`, `constructor`, `prototype`) sent through
// every input that names fields: CSV headers and their dotted paths, JSON rows, `data`,
// `metadata`, template fields, the dashboard's column mapping, query strings, header names and
// the operator's template import. Each is refused with 400 naming it, nothing is made, no
// object of the server's process gains a property, and the server goes on answering everyone.
import { connect } from 'node:net';
import t, { type Test } from 'tap';
import { importTemplate } from '../../src/app/admin.ts';
import { dashboardCall, signUpOverHttp } from '../helpers/dashboard-api.ts';
import { call, startTestServer } from '../helpers/server.ts';

const server = await startTestServer(t);
const a = await server.tenant();
const other = await server.tenant();
const structured = a.templates.test.structured;
const simple = a.templates.test.simple;
const KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

/** Nothing was written onto a prototype of this process (the server runs in it). */
function untouched(t: Test, what: string) {
  t.equal(({} as Record<string, unknown>).city, undefined, `${what}: ({}).city is undefined`);
  t.same(
    Object.getOwnPropertyNames(Object.prototype).sort(),
    prototypeNames,
    `${what}: Object.prototype as it was`,
  );
  t.equal(([] as unknown as Record<string, unknown>).city, undefined, `${what}: no array gained a city`);
}

/** A refusal that names the key: 400 INVALID_REQUEST, its field and message naming it. */
function refused(
  t: Test,
  what: string,
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON it asked for
  r: { status: number; body: any },
  key: string,
  field?: string,
) {
  t.equal(r.status, 400, `${what}: 400`);
  t.equal(r.body?.error?.code, 'INVALID_REQUEST', `${what}: INVALID_REQUEST`);
  t.match(r.body?.error?.message, key, `${what}: the message names ${key}`);
  t.match(r.body?.error?.field, field ?? key, `${what}: the field names ${field ?? key}`);
}

const post = (path: string, raw: string) =>
  call(t, server, 'POST', path, { key: a.test, raw, headers: { 'content-type': 'application/json' } });

t.test('the public API refuses them in CSV columns, rows, data, metadata and query strings', async (t) => {
  for (const key of KEYS) {
    const headers = [
      `${key}.city`,
      `${key}[0]`,
      `figures[0].${key}`,
      `metadata.${key}`,
      `envelope.${key}.city`,
    ];
    if (key === 'constructor') headers.push('constructor.prototype.city');
    for (const header of headers) {
      const csv = `title,${header}\nHello,Paris\n`;
      const r = await post('/batches', JSON.stringify({ templateId: structured, csv }));
      refused(t, `csv column ${header}`, r, key, `csv/${header}`);
      untouched(t, `csv column ${header}`);
    }
    const bodies: [string, string, string][] = [
      ['/batches', `{"templateId":"${structured}","rows":[{"${key}":{"city":"Paris"}}]}`, `rows/0/${key}`],
      [
        '/batches',
        `{"templateId":"${structured}","rows":[{"data":{"title":"x","${key}":{"city":"Paris"}}}]}`,
        `rows/0/data/${key}`,
      ],
      [
        '/generations',
        `{"templateId":"${structured}","data":{"title":"x","${key}":{"city":"Paris"}}}`,
        `data/${key}`,
      ],
      [
        '/generations',
        `{"templateId":"${structured}","data":{"title":"x","figures":[{"item":"a","${key}":"Paris"}]}}`,
        `data/figures/0/${key}`,
      ],
      ['/previews', `{"templateId":"${structured}","data":{"${key}":{"city":"Paris"}}}`, `data/${key}`],
      [
        '/generations',
        `{"templateId":"${simple}","text":"x","metadata":{"${key}":{"city":"Paris"}}}`,
        `metadata/${key}`,
      ],
      [
        '/generations',
        `{"templateId":"${simple}","text":"x","metadata":{"${key}":"Paris"}}`,
        `metadata/${key}`,
      ],
    ];
    for (const [path, raw, field] of bodies) {
      refused(t, `${path} ${raw}`, await post(path, raw), key, field);
      untouched(t, `${path} ${raw}`);
    }
    for (const query of [`${key}[city]=Paris`, `${key}.city=Paris`, `${key}=x`]) {
      const r = await call(t, server, 'GET', `/generations?${query}`, { key: a.test });
      refused(t, `?${query}`, r, key, decodeURIComponent(query.split('=')[0]!));
      untouched(t, `?${query}`);
    }
  }
  const listed = await call(t, server, 'GET', '/generations', { key: a.test });
  t.same(listed.body.data, [], 'no job was made');
  const batches = await call(t, server, 'GET', '/batches', { key: a.test });
  t.same(batches.body.data, [], 'no batch was made');
});

t.test('the dashboard refuses them in template fields and in the column mapping', async (t) => {
  const s = await signUpOverHttp(server, 'keys@example.com');
  const template = (blocks: string) =>
    `{"version":2,"name":"Keys","mode":"structured","style":{"fontId":"font_76FIvrxbMWVVj6WyJCWgxI"},"blocks":${blocks}}`;
  for (const key of KEYS) {
    const asBlockKey = await dashboardCall(
      server,
      s,
      'POST',
      '/templates',
      `{"mode":"test","template":${template(`[{"type":"text","key":"${key}"}]`)}}`,
    );
    refused(t, `a block keyed ${key}`, asBlockKey, key, 'blocks[0].key');
    const asColumnKey = await dashboardCall(
      server,
      s,
      'POST',
      '/templates',
      `{"mode":"test","template":${template(`[{"type":"table","key":"t","columns":[{"key":"${key}"}]}]`)}}`,
    );
    refused(t, `a table column keyed ${key}`, asColumnKey, key, 'blocks[0].columns[0].key');
    const inJson = await dashboardCall(
      server,
      s,
      'POST',
      '/templates',
      `{"mode":"test","template":{"version":2,"name":"Keys","mode":"simple","${key}":{"city":"Paris"}}}`,
    );
    refused(t, `a template holding ${key}`, inJson, key, `template/${key}`);
    untouched(t, `template fields, ${key}`);
  }
  const tpl = await dashboardCall(
    server,
    s,
    'POST',
    '/templates',
    `{"mode":"test","template":${template('[{"type":"text","key":"title"}]')}}`,
  );
  t.equal(tpl.status, 201, 'a template with ordinary keys is made');
  for (const key of KEYS) {
    for (const target of [`${key}.city`, `title.${key}`, `metadata.${key}`]) {
      const mapped = await dashboardCall(
        server,
        s,
        'POST',
        '/batches/preview',
        JSON.stringify({
          mode: 'test',
          templateId: tpl.body.id,
          csv: 'a,b\nHello,Paris\n',
          columns: ['title', target],
        }),
      );
      refused(t, `column mapped to ${target}`, mapped, key, 'columns/1');
      untouched(t, `column mapped to ${target}`);
    }
  }
});

t.test("the operator's template import refuses them", async (t) => {
  for (const key of KEYS) {
    await t.rejects(
      importTemplate(server.ctx, {
        account: a.accountId,
        mode: 'test',
        json: `{"version":2,"name":"Keys","mode":"simple","style":{"${key}":{"city":"Paris"}}}`,
        source: 'keys.json',
      }),
      { message: new RegExp(`keys\\.json: style/${key}: the key "${key}" is not accepted`) },
    );
    untouched(t, `template import, ${key}`);
  }
});

t.test('header names that are reserved keys are headers like any other', async (t) => {
  const get = (port: number, key: string, names: string) =>
    new Promise<string>((resolve, reject) => {
      let got = '';
      const s = connect(port, '127.0.0.1', () =>
        s.write(
          `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${names}Connection: close\r\n\r\n`,
        ),
      );
      s.on('data', (d) => {
        got += d.toString('latin1');
      });
      s.on('end', () => resolve(got));
      s.on('error', reject);
    });
  // The default, on loopback: the transport alone, which never answers a header name holding
  // an underscore (docs/decisions.md); `constructor` and `prototype` reach the service's headers.
  t.match(
    await get(server.port, a.test, 'constructor: x\r\nprototype: y\r\n'),
    /^HTTP\/1\.1 200 /,
    'answered as usual',
  );
  untouched(t, 'header names');
  // Where the framing check stands in front, `__proto__` too (the check drops such names).
  const checked = await startTestServer(t, { framingCheck: true });
  const b = await checked.tenant();
  const raw = await get(
    checked.port,
    b.test,
    '__proto__: {"city":"Paris"}\r\n__proto__: again\r\nconstructor: x\r\nprototype: y\r\n',
  );
  t.match(raw, /^HTTP\/1\.1 200 /, 'with the check in front: answered as usual');
  untouched(t, 'header names behind the check');
});

t.test('after all of that, the server answers every account', async (t) => {
  untouched(t, 'at the end');
  const health = await fetch(`${server.base}/health`);
  t.equal(health.status, 200);
  const templates = await call(t, server, 'GET', '/templates', { key: other.test });
  t.equal(templates.status, 200, "another account's request is answered");
  const csv = await call(t, server, 'POST', '/batches', {
    key: other.test,
    body: {
      templateId: other.templates.test.structured,
      csv: 'title,points[0],metadata.city\nNotes,First point,Paris\n',
    },
  });
  t.equal(csv.status, 202, 'an ordinary CSV batch is taken');
  const job = await call(t, server, 'POST', '/generations', {
    key: other.test,
    body: {
      templateId: other.templates.test.simple,
      text: 'Dear friend, all is well.',
      metadata: { city: 'Paris' },
    },
  });
  t.equal(job.status, 202, 'and an ordinary job, with metadata');
});

// Validates HTTP responses against the service's own OpenAPI document: every response a test
// receives must be one the document describes (status, content type, body schema, headers).
import AjvModule from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { openApiDocument } from '../../src/api/openapi/document.ts';

const Ajv = AjvModule as unknown as typeof AjvModule.default;
const addFormats = formatsModule as unknown as typeof formatsModule.default;

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: Record<string, Record<string, unknown>>;
};

export const doc = openApiDocument() as unknown as Doc;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc as object, 'openapi.json');
const compiled = new Map<string, ValidateFunction>();

const pointer = (parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function resolve<T>(node: unknown): T {
  let n = node as { $ref?: string };
  while (n && typeof n.$ref === 'string') {
    const path = n.$ref.replace(/^#\//, '').split('/');
    n = path.reduce(
      (o: Record<string, unknown>, k) =>
        o[k.replaceAll('~1', '/').replaceAll('~0', '~')] as Record<string, unknown>,
      doc as unknown as Record<string, unknown>,
    ) as { $ref?: string };
  }
  return n as T;
}

/** The document's path template matching a concrete path under /api/v1. */
export function templateOf(path: string): string | null {
  const parts = path.split('/');
  for (const tpl of Object.keys(doc.paths)) {
    const t = tpl.split('/');
    if (t.length === parts.length && t.every((seg, i) => seg.startsWith('{') || seg === parts[i])) return tpl;
  }
  return null;
}

export interface Received {
  method: string;
  /** The path under /api/v1 (without the prefix and the query). */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
  headers: Headers;
}

/** Problems of a response against the document; empty when it conforms. */
export function conformance(r: Received): string[] {
  const tpl = templateOf(r.path);
  const op = tpl ? doc.paths[tpl]?.[r.method.toLowerCase()] : undefined;
  // An undocumented path or method: only an error reply (401 before routing, then 404) fits.
  const response = op
    ? op.responses[String(r.status)]
    : r.status === 401
      ? { $ref: '#/components/responses/Unauthorized' }
      : r.status === 404
        ? { $ref: '#/components/responses/NotFound' }
        : undefined;
  if (!response) return [`${r.method} ${tpl ?? r.path} does not document status ${r.status}`];
  const resolved = resolve<{ content?: Record<string, unknown>; headers?: Record<string, unknown> }>(
    response,
  );
  const problems: string[] = [];
  for (const [name, h] of Object.entries(resolved.headers ?? {})) {
    if (resolve<{ required?: boolean }>(h).required && !r.headers.get(name))
      problems.push(`required header ${name} missing`);
  }
  const media = (r.contentType ?? '').split(';')[0]!.trim();
  const content = resolved.content ?? {};
  if (!(media in content))
    return [
      ...problems,
      `content type ${media} is not documented for ${r.status} (${Object.keys(content).join(', ')})`,
    ];
  if (media !== 'application/json') return problems;
  const refPath =
    typeof (response as { $ref?: string }).$ref === 'string'
      ? `${(response as { $ref: string }).$ref}/content/${pointer([media])}/schema`
      : `#/paths/${pointer([tpl!])}/${r.method.toLowerCase()}/responses/${r.status}/content/${pointer([media])}/schema`;
  let validate = compiled.get(refPath);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi.json${refPath}` });
    compiled.set(refPath, validate);
  }
  if (!validate(r.body))
    problems.push(
      ...(validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`),
    );
  return problems;
}

export interface Sent {
  method: string;
  /** The path under /api/v1 (without the prefix and the query). */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Validates `value` against the schema at `refPath` (a JSON pointer into the document). */
function check(refPath: string, value: unknown, what: string): string[] {
  let validate = compiled.get(refPath);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi.json${refPath}` });
    compiled.set(refPath, validate);
  }
  return validate(value)
    ? []
    : (validate.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/** Why the document would refuse a request (its parameters and JSON body); empty when it would take it. */
export function requestProblems(r: Sent): string[] {
  const tpl = templateOf(r.path);
  const method = r.method.toLowerCase();
  const op = tpl
    ? (doc.paths[tpl]?.[method] as unknown as {
        parameters?: unknown[];
        requestBody?: { content: Record<string, unknown> };
      })
    : undefined;
  if (!op) return [`${r.method} ${r.path} is not documented`];
  const base = `#/paths/${pointer([tpl!])}/${method}`;
  const problems: string[] = [];
  for (const [i, p] of (op.parameters ?? []).entries()) {
    const param = resolve<{ name: string; in: string; required?: boolean }>(p);
    const value =
      param.in === 'query'
        ? r.query?.[param.name]
        : param.in === 'header'
          ? r.headers?.[param.name.toLowerCase()]
          : undefined;
    if (param.in !== 'query' && param.in !== 'header') continue;
    if (value === undefined) {
      if (param.required) problems.push(`${param.in} ${param.name} is required`);
      continue;
    }
    const ref = (p as { $ref?: string }).$ref;
    problems.push(...check(`${ref ?? `${base}/parameters/${i}`}/schema`, value, `${param.in} ${param.name}`));
  }
  if (r.body !== undefined && op.requestBody?.content['application/json'])
    problems.push(
      ...check(`${base}/requestBody/content/${pointer(['application/json'])}/schema`, r.body, 'body'),
    );
  return problems;
}

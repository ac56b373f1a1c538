// GET /templates and GET /templates/{id} (spec §4): the caller's templates in its key mode.
import { templateOf, templatesPage } from '../../app/reads.ts';
import { ApiError } from '../../domain/errors.ts';
import { isId, shownId } from '../../domain/ids.ts';
import type { TemplateRecord } from '../../store/index.ts';
import { listParams, queryParams } from '../query.ts';
import type { ApiDeps } from '../deps.ts';
import { JSON_TYPE, type Route } from '../types.ts';

/** The list row: id, name, mode, dates (spec §2), plus contract version and revision. */
export function templateSummary(t: TemplateRecord) {
  return {
    id: t.id,
    name: t.name,
    mode: t.kind,
    version: t.model.version,
    revision: t.revision,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** The builder model (v2: style and blocks) or, for legacy v1, `settings` and `fontIds`. */
export function templateDetail(t: TemplateRecord) {
  const m = t.model;
  const base = templateSummary(t);
  if (m.version === 1) return { ...base, settings: m.settings, fontIds: m.fontIds };
  return m.mode === 'structured'
    ? { ...base, style: m.style, blocks: m.blocks }
    : { ...base, style: m.style };
}

// Records come frozen from the store's cache, so their JSON can be kept with them.
const serialized = new WeakMap<TemplateRecord, string>();

function detailJson(t: TemplateRecord): string {
  let json = serialized.get(t);
  if (json === undefined) {
    json = JSON.stringify(templateDetail(t));
    serialized.set(t, json);
  }
  return json;
}

export function templateRoutes(d: ApiDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/templates',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor } = listParams(req);
        const page = await templatesPage(d, req.caller.tenant, { limit, cursor });
        return { status: 200, json: { ...page, data: page.data.map(templateSummary) } };
      },
    },
    {
      method: 'GET',
      path: '/templates/{id}',
      body: 'none',
      handler: async (req) => {
        queryParams(req, []);
        const id = req.params.id!;
        const t = isId('tpl', id) ? await templateOf(d, req.caller.tenant, id) : null;
        if (!t) throw new ApiError('TEMPLATE_NOT_FOUND', `no template ${shownId(id)} for this key`);
        return { status: 200, raw: { contentType: JSON_TYPE, bytes: detailJson(t) } };
      },
    },
  ];
}

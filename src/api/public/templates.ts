// GET /templates and GET /templates/{id} (spec §4): the caller's templates in its key mode.
import { templateOf, templatesPage } from '../../app/reads.ts';
import { apiRefusal } from '../../domain/errors.ts';
import { isId, shownId } from '../../domain/ids.ts';
import type { ApiDeps } from '../deps.ts';
import { listParams, queryParams } from '../query.ts';
import { JSON_TYPE, ok, type Routes } from '../types.ts';
import { templateDetailJson, templateSummary } from '../views.ts';

export const templateRoutes = (d: ApiDeps): Routes<'key'> => [
  {
    method: 'GET',
    path: '/templates',
    body: 'none',
    handler: async (req) => {
      const { limit, cursor } = listParams(req);
      const page = await templatesPage(d, req.caller.tenant, { limit, cursor });
      return ok({ ...page, data: page.data.map(templateSummary) });
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
      if (!t) throw apiRefusal('TEMPLATE_NOT_FOUND', `no template ${shownId(id)} for this key`);
      return { status: 200, raw: { contentType: JSON_TYPE, bytes: templateDetailJson(t) } };
    },
  },
];

// The dashboard's templates: listed, made, saved, exported, sampled; the schema the builder's
// forms are drawn from; and the builder's previews of a draft.
import { newTemplate, saveTemplate } from '../../app/dashboard.ts';
import { draftPreview, templateSample } from '../../app/drafts.ts';
import { templateOf, templatesPage } from '../../app/reads.ts';
import { Refusal } from '../../domain/errors.ts';
import { shownId } from '../../domain/ids.ts';
import { templateJsonSchemas } from '../../domain/template.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, objectBody, oneOf } from '../input.ts';
import { listParams } from '../query.ts';
import { ok, type RouteRequest, type Routes } from '../types.ts';
import { templateSummary } from '../views.ts';
import { callerOf, tenantOf } from './account.ts';

/** A template sent to be stored or drawn: its mode, and the template as a JSON object. */
function templateBody(
  req: RouteRequest<'session'>,
  more: string[] = [],
): { mode: 'live' | 'test'; template: Record<string, unknown> } {
  allowOnly(req.json, ['mode', 'template', ...more]);
  const m = oneOf('mode', req.json.mode, MODES);
  return { mode: m, template: objectBody(req.json.template, 'template') };
}

let schemas: ReturnType<typeof templateJsonSchemas> | undefined;
/** The template model's JSON Schemas (ranges, units, defaults), which the builder's forms are drawn from. */
const templateSchemas = () => {
  schemas ??= templateJsonSchemas();
  return schemas;
};

export const templateRoutes = (d: ApiDeps): Routes<'session'> => [
  {
    method: 'GET',
    path: '/accounts/{account}/templates',
    body: 'none',
    handler: async (req) => {
      const { limit, cursor, rest } = listParams(req, ['mode']);
      const tenant = tenantOf(req, oneOf('mode', rest.mode, MODES));
      const page = await templatesPage(d, tenant, { limit, cursor });
      return ok({ ...page, data: page.data.map(templateSummary) });
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/templates',
    body: 'json',
    handler: async (req) => {
      const t = await newTemplate(d, req.session, req.params.account!, templateBody(req));
      return ok(templateSummary(t), 201);
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/templates/{template}',
    body: 'json',
    handler: async (req) => {
      const t = await saveTemplate(d, req.session, req.params.account!, {
        id: req.params.template!,
        ...templateBody(req),
      });
      return ok(templateSummary(t));
    },
  },
  {
    method: 'GET',
    path: '/accounts/{account}/templates/{template}/export',
    body: 'none',
    handler: async (req) => {
      const t = await templateOf(d, tenantOf(req), req.params.template!);
      if (!t)
        throw new Refusal(
          'missing',
          `template ${shownId(req.params.template!)} does not exist for this account and mode`,
        );
      return {
        status: 200,
        headers: { 'Content-Disposition': `attachment; filename="${t.id}.template.json"` },
        raw: {
          contentType: 'application/json; charset=utf-8',
          bytes: `${JSON.stringify(t.model, null, 2)}\n`,
        },
      };
    },
  },
  {
    method: 'GET',
    path: '/accounts/{account}/templates/{template}/sample',
    body: 'none',
    handler: async (req) => ok(await templateSample(d, tenantOf(req), req.params.template!)),
  },
  {
    method: 'GET',
    path: '/template-schema',
    body: 'none',
    handler: async () => ok(templateSchemas()),
  },
  {
    method: 'POST',
    path: '/accounts/{account}/drafts',
    body: 'json',
    handler: async (req) => {
      const { mode: m, template } = templateBody(req, ['sample']);
      const draft = await draftPreview(d, await callerOf(d, req, m), {
        mode: m,
        template,
        sample: req.json.sample,
      });
      return ok({ png: Buffer.from(draft.png).toString('base64'), sample: draft.input });
    },
  },
];

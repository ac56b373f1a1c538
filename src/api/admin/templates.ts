// The admin API's templates: one made for an account from its JSON, as the dashboard's builder
// or `scriptorium admin template import` makes it, so that the admin token alone provisions what
// a load test needs (docs/operations.md, "Load testing").
import { importTemplate } from '../../app/admin.ts';
import { invalid } from '../../domain/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, oneOf } from '../input.ts';
import { ok, type Routes } from '../types.ts';
import { templateDetail } from '../views.ts';

export const templateRoutes = (d: ApiDeps): Routes<'admin'> => [
  {
    method: 'POST',
    path: '/accounts/{id}/templates',
    body: 'json',
    handler: async (req) => {
      const b = req.json;
      allowOnly(b, ['mode', 'template']);
      const mode = oneOf('mode', b.mode, MODES);
      if (typeof b.template !== 'object' || b.template === null || Array.isArray(b.template))
        throw invalid('template', 'a template object (docs/templates.md)', b.template);
      const record = await importTemplate(d, {
        account: req.params.id!,
        mode,
        template: b.template,
        source: 'template',
      });
      // The public template, with whose it is: its account and its key mode.
      return ok({ ...templateDetail(record), accountId: record.accountId, keyMode: record.mode }, 201);
    },
  },
];

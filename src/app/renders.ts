// POST /renders (spec §4 Render, §8; DESIGN §6): one page of a simple-text template as SVG, PNG or
// a pen plotter's strokes (an extension), synchronously, on the render pool. Order: the server's
// render mode → the body → the template and its font → the image size (before any rasterising) →
// some allowance (credits mode) → the account's heavy-render slot (PNG) → the minute and day quotas
// (from here on a failure still spends the quota, as the spec says) → the render, with its 15 s
// limit → the charge (credits mode) and the counters, in one transaction.
import { balanceRefusal } from '../domain/billing.ts';
import { isId, shownId } from '../domain/ids.ts';
import { isUnavailable, limitReached, apiRefusal, type DecidedRefusal } from '../domain/errors.ts';
import { milliSheetsPerPage } from '../domain/page-size.ts';
import { checkImageSize, parseRenderBody } from '../domain/render-request.ts';
import { toRenderSpec } from '../domain/render-spec.ts';
import type { RenderQuota } from '../limits/render-quota.ts';
import { pageSizePt, penTravel } from '../render/index.ts';
import type { Caller } from './auth.ts';
import type { JobDeps } from './generations.ts';
import { type Renderer, RenderTaskError } from './ports/renderer.ts';
import { checkFontAccess, renderResources } from './render-resources.ts';

export interface RenderDeps extends Pick<JobDeps, 'store' | 'blobs' | 'config' | 'now'> {
  renderer: Renderer;
  quota: RenderQuota;
}

const CONTENT_TYPES = {
  svg: 'image/svg+xml; charset=utf-8',
  png: 'image/png',
  strokes: 'image/svg+xml; charset=utf-8',
} as const;

export async function renderNow(
  d: RenderDeps,
  caller: Caller,
  body: unknown,
  requestId: string,
): Promise<{ contentType: string; bytes: Uint8Array; headers?: Record<string, string> }> {
  const c = d.config;
  if (c.renderMode === 'disabled')
    throw apiRefusal(
      'RENDER_DISABLED',
      'synchronous renders are disabled on this server; PDF generations still work',
    );
  const req = parseRenderBody(body, { textMax: c.renderTextMax });
  const tenant = caller.tenant;
  const template = isId('tpl', req.templateId) ? await d.store.templates.get(tenant, req.templateId) : null;
  if (!template)
    throw apiRefusal(
      'TEMPLATE_NOT_FOUND',
      `no template ${shownId(req.templateId)} for this account and key mode`,
      {
        field: 'templateId',
      },
    );
  if (template.model.version !== 2 || template.model.mode !== 'simple') {
    throw apiRefusal(
      'INVALID_REQUEST',
      `template ${template.id} is a ${template.kind} template; renders take simple-text templates only (use POST /generations for the others)`,
      {
        field: 'templateId',
      },
    );
  }
  const plan = d.store.plans[caller.account.plan];
  if (c.renderMode === 'subscription' && !plan.renderAccess) {
    throw apiRefusal(
      'RENDER_ACCESS_DENIED',
      `the ${caller.account.plan} plan does not include renders; renders need a plan with render access`,
    );
  }
  const { spec } = toRenderSpec(
    template.model,
    { input: { text: req.text }, fontSize: req.fontSize },
    { textLimit: c.renderTextMax, subscribed: true },
  );
  const style = spec.style;
  await checkFontAccess(d.store, caller, template.model.style.fontId);
  if (req.format === 'png') {
    const page = pageSizePt(style);
    checkImageSize(page.width, page.height, { maxSide: c.renderMaxSide, maxPixels: c.renderMaxPixels });
  }
  const now = d.now();
  if (c.renderMode === 'credits') {
    const check = await d.store.billing.checkBeforeWork(tenant, now);
    if (!check.ok)
      throw apiRefusal('INSUFFICIENT_BALANCE', balanceRefusal('cannot render', check, tenant.mode));
  }
  const release = req.format === 'png' ? await d.quota.lease(tenant.accountId) : null;
  if (req.format === 'png' && !release) {
    throw limitReached('one PNG render at a time per account: another one is running', {
      name: 'render-in-progress',
      limit: 1,
      reset: 60,
    });
  }
  try {
    const admission = await d.quota.admit(tenant.accountId, now);
    if (!admission.ok) throw limitReached(admission.message, admission.quota, admission.retryAfter);
    let bytes: Uint8Array;
    try {
      const resources = await renderResources(d.store, d.blobs, tenant, spec);
      const out = await d.renderer.run(
        {
          output: req.format,
          spec,
          ...resources,
          createdAt: now.toISOString(),
          limits: { maxPages: 1, maxLines: c.renderLinesMax, maxBytes: c.renderOutputMaxBytes },
        },
        { timeoutMs: c.renderSyncTimeoutMs },
      );
      bytes = out.bytes;
    } catch (err) {
      // Storage that cannot be read now is a 503 to try again, not a failed render.
      throw isUnavailable(err) ? err : refusal(err, c.renderSyncTimeoutMs);
    }
    await d.store.db.write(async (tx) => {
      if (c.renderMode === 'credits') {
        const charge = await d.store.billing.chargeIn(
          tx,
          tenant,
          { jobId: requestId, kind: 'render', pages: 1, milliPerPage: milliSheetsPerPage(style.pageSize) },
          now,
        );
        if (!charge.ok)
          throw apiRefusal(
            'INSUFFICIENT_BALANCE',
            `the render needs sheets the account does not have: ${charge.message}`,
          );
      }
      await d.store.billing.count(tx, tenant, now, {
        renders: 1,
        // A pen plotter's strokes are an SVG too.
        [req.format === 'png' ? 'png_renders' : 'svg_renders']: 1,
      });
    });
    // A pen plotter's page says how often the pen goes down and how far it travels up.
    const travel =
      req.format === 'strokes' ? penTravel(new TextDecoder().decode(bytes.subarray(0, 512))) : null;
    const headers = travel
      ? { 'X-Pen-Downs': String(travel.penDowns), 'X-Pen-Up-Mm': String(travel.penUpMm) }
      : undefined;
    return { contentType: CONTENT_TYPES[req.format], bytes, ...(headers ? { headers } : {}) };
  } finally {
    await release?.();
  }
}

/** A failed render as the client hears it: a limit is a 400 naming it; anything else is ours. */
function refusal(err: unknown, timeoutMs: number): DecidedRefusal {
  if (err instanceof RenderTaskError) {
    if (err.reason === 'timeout')
      return apiRefusal(
        'INVALID_REQUEST',
        `rendering took longer than ${timeoutMs / 1000} s and was stopped; send less text`,
        { field: 'text' },
      );
    if (err.reason === 'damaged') return apiRefusal('RENDER_FAILED', err.message);
    if (err.reason === 'render') {
      const why: Record<string, string> = {
        TOO_MANY_LINES: `${err.message} (a render is at most that many lines, wrapping included)`,
        TOO_MANY_PAGES: 'the text does not fit on one page of the template; a render is one page',
        OUTPUT_TOO_LARGE: `${err.message}`,
        UNSUPPORTED_CHARACTERS: err.message,
      };
      const message = why[err.code ?? ''];
      if (message) return apiRefusal('INVALID_REQUEST', message, { field: 'text' });
    }
  }
  return apiRefusal('RENDER_FAILED', 'the render failed on the server; quote the request id');
}

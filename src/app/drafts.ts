// The builder's live preview (dashboard): an unsaved template and sample input → the first page
// as a PNG, on the render pool. The template goes through the same validation as an import
// (checkedTemplate) and the input through the same admission checks as a job's (admittedSpec),
// so the preview refuses exactly what saving or submitting would, naming the field. Nothing is
// stored or charged; drafts are bounded per account by their own rate limit.
import { isUnavailable, limitReached, Refusal, apiRefusal } from '../domain/errors.ts';
import { shownId } from '../domain/ids.ts';
import type { TemplateModel } from '../domain/template.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { KeyMode } from '../domain/api-keys.ts';
import type { JobInput } from '../domain/generation.ts';
import { sampleInput, withAbsentOptional } from '../domain/template-sample.ts';
import type { RateLimiter } from '../limits/rate-limit.ts';
import { type AdminDeps, checkedTemplate } from './admin.ts';
import type { Caller } from './auth.ts';
import { admittedSpec } from './generations.ts';
import { type Renderer, RenderTaskError } from './ports/renderer.ts';
import { renderResources } from './render-resources.ts';

export interface DraftDeps extends AdminDeps {
  renderer: Renderer;
  /** Builder previews per account. */
  draftLimiter: RateLimiter;
}

/** A draft's page resolution: an A4 page is 794 x 1123 px, sharp beside a form on most screens. */
export const DRAFT_DPI = 96;

export interface Draft {
  png: Uint8Array;
  /** The input drawn: the one sent, or samples the template takes. */
  input: JobInput;
}

/** Input `model` takes, filled with samples (the account's first image for a dynamic image). */
async function samplesFor(d: AdminDeps, tenant: Tenant, model: TemplateModel): Promise<JobInput> {
  const [image] = await d.store.assets.list(tenant);
  return sampleInput(model, image?.id);
}

/** A stored template's sample input: what its "Use it" snippets send, in the template's own fields. */
export async function templateSample(d: AdminDeps, tenant: Tenant, id: string): Promise<JobInput> {
  const t = await d.store.templates.get(tenant, id);
  if (!t) throw new Refusal('missing', `template ${shownId(id)} does not exist for this account and mode`);
  return samplesFor(d, tenant, t.model);
}

/** The sample a draft is drawn with: what the builder sent, checked for its shape only. */
function sentInput(sample: unknown): JobInput | undefined {
  if (sample === undefined || sample === null) return undefined;
  const fields = typeof sample === 'object' && !Array.isArray(sample) ? Object.keys(sample) : [];
  const [field] = fields;
  if (fields.length !== 1 || !['text', 'data', 'content'].includes(field!))
    throw apiRefusal('INVALID_REQUEST', 'sample must be an object with one of text, data or content', {
      field: 'sample',
    });
  const value = (sample as Record<string, unknown>)[field!];
  const ok =
    field === 'text'
      ? typeof value === 'string'
      : field === 'content'
        ? Array.isArray(value)
        : typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!ok)
    throw apiRefusal(
      'INVALID_REQUEST',
      `sample.${field} must be ${field === 'text' ? 'a string' : field === 'content' ? 'an array of blocks' : 'an object'}`,
      { field: `sample.${field}` },
    );
  return sample as JobInput;
}

/**
 * Draws the first page of an unsaved template (as the builder holds it) with the sample
 * given, or with samples the template takes (the account's first image for a dynamic image).
 */
export async function draftPreview(
  d: DraftDeps,
  caller: Caller,
  input: { template: unknown; mode: KeyMode; sample?: unknown },
): Promise<Draft> {
  const tenant = caller.tenant;
  const model = await checkedTemplate(d, {
    account: tenant.accountId,
    mode: input.mode,
    template: input.template,
    source: 'template',
  });
  const sample = sentInput(input.sample) ?? (await samplesFor(d, tenant, model));
  const { spec } = await admittedSpec(d, caller, withAbsentOptional(model, sample), { input: sample });
  const rate = await d.draftLimiter.consume(tenant.accountId);
  if (!rate.allowed)
    throw limitReached(
      `at most ${d.draftLimiter.points} builder previews a minute per account; wait ${rate.resetSeconds} s`,
      {
        name: 'drafts-per-minute',
        limit: d.draftLimiter.points,
        window: d.draftLimiter.windowSeconds,
        reset: rate.resetSeconds,
      },
      rate.resetSeconds,
    );
  const c = d.config;
  try {
    const resources = await renderResources(d.store, d.blobs, tenant, spec);
    const out = await d.renderer.run(
      {
        output: 'draft',
        spec,
        ...resources,
        createdAt: d.now().toISOString(),
        limits: { maxPages: c.maxPages, maxBytes: c.renderOutputMaxBytes, previewDpi: DRAFT_DPI },
      },
      { timeoutMs: c.renderSyncTimeoutMs },
    );
    return { png: out.bytes, input: sample };
  } catch (err) {
    if (isUnavailable(err)) throw err;
    if (err instanceof RenderTaskError && err.reason === 'render')
      throw apiRefusal('INVALID_REQUEST', `the sample cannot be drawn: ${err.message}`, {
        field: 'sample',
      });
    if (err instanceof RenderTaskError && err.reason === 'timeout')
      throw apiRefusal(
        'INVALID_REQUEST',
        `the preview took longer than ${c.renderSyncTimeoutMs / 1000} s and was stopped; use a shorter sample`,
        { field: 'sample' },
      );
    if (err instanceof RenderTaskError && err.reason === 'damaged')
      throw apiRefusal('RENDER_FAILED', err.message);
    throw err;
  }
}

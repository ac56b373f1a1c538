// Generations and previews (spec §3, §4; DESIGN §3, §9): submitting a job, running it on the
// render pool, cancelling it, and the sweeper of expired and orphaned outputs.
//
// The completion order is the one of DESIGN §9: render → write the output under a key of its
// own attempt → one transaction (re-check the whole charge, ledger, completed) → done. A crash
// anywhere leaves the job queued or processing, and the next start runs it again; a commit that
// loses (cancelled, or another attempt got there) deletes its output; the sweeper removes what
// a crash left between the two.
import { isId, shownId } from '../domain/ids.ts';
import type { Logger } from 'pino';
import type { BlobStore } from '../blobs/types.ts';
import type { Config } from '../config/index.ts';
import { isUnavailable, limitReached, apiRefusal } from '../domain/errors.ts';
import { assetIds, type DocBlock, jobBlocks } from '../domain/document.ts';
import type { Job, JobInput, JobKind } from '../domain/generation.ts';
import { admittedJob, type NewJob, parseJobBody } from '../domain/generation.ts';
import { milliSheetsPerPage } from '../domain/page-size.ts';
import { IDEMPOTENCY } from '../domain/idempotency.ts';
import { hasSubscription } from '../domain/plans.ts';
import { type SpecRequest, specOf, toRenderSpec } from '../domain/render-spec.ts';
import { type TemplateModel, templateFontIds } from '../domain/template.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import type { RateLimiter } from '../limits/rate-limit.ts';
import type { JobQueue, JobRunner } from '../queue/types.ts';
import { type RenderSpec, resourcesOf } from '../render/index.ts';
import type { AssetRecord, Completion, Store, TemplateRecord } from '../store/index.ts';
import type { Tenant } from '../domain/tenant.ts';
import { keptFor, type Remembered } from './idempotency.ts';
import { feedBatch } from './batch-feeder.ts';
import type { Caller } from './auth.ts';
import { type Renderer, type RenderRequest, RenderTaskError } from './ports/renderer.ts';
import { checkCoverage } from './coverage.ts';
import { checkFontAccess, renderResources } from './render-resources.ts';

export interface JobDeps {
  store: Store;
  blobs: BlobStore;
  config: Config;
  now: () => Date;
  queue: JobQueue;
  /** New previews per account (spec §8: 3 a minute). */
  previewLimiter: RateLimiter;
  /** This instance's name where several share one queue (farm): its own 32 queued jobs. */
  instance?: string;
}

/**
 * A template and a request's input checked as a job's are at submission (the input against the
 * template, fonts the plan may use, images that exist and fit in memory, characters the fonts
 * write) and mapped to the specification the engine renders. The dashboard's builder previews
 * an unsaved template through the same checks.
 */
export async function admittedSpec(
  d: Pick<JobDeps, 'store' | 'blobs' | 'config'>,
  caller: Caller,
  template: TemplateModel,
  request: SpecRequest,
): Promise<{ model: TemplateModel; spec: RenderSpec }> {
  return specChecker(d, caller, template)(request);
}

/**
 * The checks of admittedSpec for many inputs of one template (a batch's rows): what does not
 * change from one input to the next (the fonts the plan may use, the images that exist) is
 * looked up once.
 */
export function specChecker(
  d: Pick<JobDeps, 'store' | 'blobs' | 'config'>,
  caller: Caller,
  template: TemplateModel,
): (request: SpecRequest) => Promise<{ model: TemplateModel; spec: RenderSpec }> {
  const tenant = caller.tenant;
  const subscribed = hasSubscription(d.store.plans[caller.account.plan]);
  const fontsChecked = new Set<string>();
  const assets = new Map<string, AssetRecord | null>();
  return async (request) => {
    const { template: model, spec } = toRenderSpec(template, request, {
      subscribed,
      textLimit: subscribed ? d.config.textMaxChars : d.config.textMaxCharsFree,
    });
    for (const fontId of templateFontIds(model)) {
      if (fontsChecked.has(fontId)) continue;
      await checkFontAccess(d.store, caller, fontId);
      fontsChecked.add(fontId);
    }
    const images = new Map<string, AssetRecord | null>();
    for (const id of resourcesOf(spec).images) {
      if (!assets.has(id)) assets.set(id, await d.store.assets.get(tenant, id));
      images.set(id, assets.get(id)!);
    }
    if ('blocks' in spec.content) checkAssets(images, spec.content.blocks, request.input);
    const field = 'text' in request.input ? 'text' : 'data' in request.input ? 'data' : 'content';
    checkImageMemory(images, d.config.jobImageMemoryMb, field);
    await checkCoverage(d.store, d.blobs, tenant, spec, field);
    return { model, spec };
  };
}

/**
 * POST /generations and POST /previews. Returns the job and whether it already existed (an
 * unchanged preview). Bad input, a foreign template, a limit: an error, and nothing created.
 */
export async function submitJob(
  d: JobDeps,
  caller: Caller,
  body: unknown,
  kind: JobKind,
  /** Keeps the answer of a request sent with an idempotency key in the job's own commit. */
  remember?: Remembered<Job>,
  /** The request that creates it (`req_…`), kept with the job for its log lines. */
  requestId?: string,
): Promise<{ job: Job; existing: boolean }> {
  const parsed = parseJobBody(body, kind);
  const tenant = caller.tenant;
  const template = await ownTemplate(d, tenant, parsed.templateId);
  const { model, spec } = await admittedSpec(d, caller, template.model, parsed);
  const inputHash = sha256Hex(JSON.stringify(parsed.input));
  const now = d.now();
  if (kind === 'preview') {
    const existing = await d.store.generations.findPreview(
      tenant,
      template.id,
      template.revision,
      inputHash,
      now,
    );
    if (existing) return { job: existing, existing: true };
    const rate = await d.previewLimiter.consume(tenant.accountId);
    if (!rate.allowed) {
      throw limitReached(`at most ${d.previewLimiter.points} new previews a minute per account; wait 60 s`, {
        name: 'previews-per-minute',
        limit: d.previewLimiter.points,
        window: d.previewLimiter.windowSeconds,
        reset: rate.resetSeconds,
      });
    }
  }
  const submitted: NewJob = {
    id: newId('gen'),
    kind,
    templateId: template.id,
    templateRevision: template.revision,
    template: model,
    input: parsed.input,
    inputHash,
    spec,
    metadata: parsed.metadata,
    ...(requestId ? { requestId } : {}),
  };
  const job = await d.store.generations
    .submit(
      tenant,
      submitted,
      { unfinished: d.config.maxUnfinishedJobs, queued: d.config.queueMax, instance: d.instance },
      now,
      keptFor(remember, admittedJob(tenant, submitted, now)),
    )
    .catch(async (err: unknown) => {
      // A refused preview spends none of the account's previews (a 429 has no side effect).
      if (kind === 'preview') await d.previewLimiter.refund(tenant.accountId);
      throw err;
    });
  d.queue.enqueue({ id: job.id, accountId: job.accountId });
  return { job, existing: false };
}

/** The tenant's template a job names, or TEMPLATE_NOT_FOUND. */
export async function ownTemplate(
  d: Pick<JobDeps, 'store'>,
  tenant: Tenant,
  id: string,
): Promise<TemplateRecord> {
  const template = isId('tpl', id) ? await d.store.templates.get(tenant, id) : null;
  if (!template)
    throw apiRefusal('TEMPLATE_NOT_FOUND', `no template ${shownId(id)} for this account and key mode`, {
      field: 'templateId',
    });
  return template;
}

/**
 * Every image the blocks place must be an asset of the caller's account and key mode (`images`:
 * the job's images as the store has them, null where it has none). A missing one sent in `data`
 * is INVALID_TEMPLATE_DATA at its path; in `content`, INVALID_REQUEST at its block.
 */
function checkAssets(images: Map<string, AssetRecord | null>, blocks: DocBlock[], input: JobInput): void {
  for (const id of new Set(assetIds(blocks))) {
    if (images.get(id)) continue;
    const what = `names no image of this account and key mode: ${id} (upload it with POST /assets)`;
    if ('data' in input) {
      const key = Object.keys(input.data).find(
        (k) => (input.data[k] as { assetId?: unknown } | null)?.assetId === id,
      );
      if (key)
        throw apiRefusal('INVALID_TEMPLATE_DATA', `${key}/assetId ${what}`, { field: `${key}/assetId` });
      throw apiRefusal('INVALID_REQUEST', `the template's image ${id} no longer exists`, {
        field: 'templateId',
      });
    }
    const field = contentPathOf(input as { content: unknown[] }, id);
    throw apiRefusal('INVALID_REQUEST', `${field} ${what}`, { field });
  }
}

/**
 * The distinct images a job draws, decoded, must fit its budget (4 bytes a pixel): a render
 * thread holds them all while it writes the document, outside its heap limit.
 */
function checkImageMemory(images: Map<string, AssetRecord | null>, budgetMb: number, field: string): void {
  let pixels = 0;
  for (const a of images.values()) if (a) pixels += a.width * a.height;
  const mib = (pixels * 4) / 2 ** 20;
  if (mib > budgetMb)
    throw apiRefusal(
      'INVALID_REQUEST',
      `the ${images.size} images of this job decode to ${Math.ceil(mib)} MiB of pixels (${(pixels / 1e6).toFixed(1)} megapixels); one job may use at most ${budgetMb} MiB: use fewer or smaller images`,
      { field },
    );
}

/** `content[3].assetId` or `content[1].columns[0].content[2].assetId`: where v1 content places an image. */
function contentPathOf(input: { content: unknown[] }, id: string): string {
  const walk = (blocks: unknown[], path: string): string | null => {
    for (const [i, b] of blocks.entries()) {
      const o = b as { assetId?: unknown; columns?: { content?: unknown[] }[] };
      if (o.assetId === id) return `${path}[${i}].assetId`;
      for (const [ci, c] of (o.columns ?? []).entries()) {
        const found = walk(c.content ?? [], `${path}[${i}].columns[${ci}].content`);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(input.content, 'content') ?? 'content';
}

/** POST /generations/{id}/cancel: no charge; the running task, if any, is stopped. */
export async function cancelJob(d: JobDeps, caller: Caller, id: string): Promise<Job> {
  const job = await d.store.generations.cancel(caller.tenant, id, d.now());
  if (!job)
    throw apiRefusal('GENERATION_NOT_FOUND', `no generation ${shownId(id)} for this account and key mode`);
  d.queue.abort(id);
  if (job.batchId !== null) await feedBatch(d, job.batchId);
  return job;
}

export interface RunnerDeps {
  store: Store;
  blobs: BlobStore;
  config: Config;
  now: () => Date;
  renderer: Renderer;
  log: Logger;
  /** Told of each job this process finishes. */
  onFinished?: (kind: JobKind, outcome: 'completed' | 'failed', pages: number) => void;
  /** Told of each job this process starts for the first time, with the seconds it waited in the queue. */
  onStarted?: (kind: JobKind, waitedSeconds: number) => void;
}

const outputKey = (job: Job) =>
  `${job.kind === 'pdf' ? 'outputs' : 'previews'}/${job.accountId}/${job.id}/${job.attempt}.${job.kind === 'pdf' ? 'pdf' : 'json'}`;

/** The worker side: claim, render, store, commit. */
export function jobRunner(d: RunnerDeps): JobRunner {
  const crash = (point: string) => {
    // Test hook (CRASH_AT): the process dies here as a kill -9 would end it.
    if (d.config.crashAt === point) process.kill(process.pid, 'SIGKILL');
  };
  return async ({ id }, signal) => {
    const job = await d.store.generations.claim(id, d.now(), d.config.jobMaxAttempts);
    if (!job) return; // cancelled or finished meanwhile
    if (signal.aborted) return;
    const started = performance.now();
    // One line per move of the job, with the request that created it (docs/operations.md, "Logs").
    const line = {
      job: id,
      requestId: job.requestId,
      account: job.accountId,
      kind: job.kind,
      attempt: job.attempt,
    };
    const ms = () => Math.round(performance.now() - started);
    d.log.info(line, 'job started');
    if (job.attempt === 1)
      d.onStarted?.(
        job.kind,
        Math.max(0, (Date.parse(job.startedAt ?? '') - Date.parse(job.createdAt)) / 1000),
      );
    let output: { pages: number; bytes: Uint8Array };
    let spec: RenderSpec;
    try {
      spec = await jobSpec(d.store, job);
      output = await d.renderer.run(await requestFor(d, job, spec), { signal });
    } catch (err) {
      if (err instanceof RenderTaskError && err.reason === 'cancelled') return; // the cancel already moved the job
      // Storage that cannot be read now (S3 away): the queue runs the job again after a back-off.
      if (isUnavailable(err)) throw err;
      const message =
        err instanceof RenderTaskError ? err.message : 'an internal error stopped the rendering';
      if (!(err instanceof RenderTaskError) || err.reason === 'crash' || err.reason === 'damaged')
        d.log.error({ err, job: id }, 'render failed');
      if (await d.store.generations.fail(id, job.attempt, { code: 'GENERATION_FAILED', message }, d.now())) {
        d.log.info({ ...line, code: 'GENERATION_FAILED', message, ms: ms() }, 'job failed');
        d.onFinished?.(job.kind, 'failed', 0);
      }
      return;
    }
    const key = outputKey(job);
    let done: Completion;
    try {
      await d.blobs.put(key, output.bytes, job.kind === 'pdf' ? 'application/pdf' : 'application/json');
      crash('after-blob');
      const now = d.now();
      done = await d.store.generations.complete(
        id,
        job.attempt,
        {
          pages: output.pages,
          blobKey: key,
          sha256: sha256Hex(output.bytes),
          bytes: output.bytes.byteLength,
          milliPerPage: milliSheetsPerPage(spec.style.pageSize),
          expiresAt: new Date(now.getTime() + d.config.retentionDays * 86_400_000).toISOString(),
        },
        now,
      );
    } catch (err) {
      // The output could not be stored or committed (a full disk, a store away): nothing was
      // charged; its space is given back and the queue runs the job again after a back-off.
      await d.blobs.delete(key).catch(() => {});
      throw err;
    }
    crash('after-commit');
    if (done.outcome === 'completed')
      d.log.info(
        {
          ...line,
          pages: output.pages,
          bytes: output.bytes.byteLength,
          creditsMilli: done.job.creditsMilli,
          ms: ms(),
        },
        'job completed',
      );
    else if (done.outcome === 'refused')
      d.log.info({ ...line, code: 'INSUFFICIENT_BALANCE', pages: output.pages, ms: ms() }, 'job failed');
    if (done.outcome !== 'completed') await d.blobs.delete(key);
    if (done.outcome !== 'stale')
      d.onFinished?.(
        job.kind,
        done.outcome === 'completed' ? 'completed' : 'failed',
        done.outcome === 'completed' ? output.pages : 0,
      );
  };
}

/**
 * The specification stored at submission, rendered as it is; a job admitted before specs were
 * stored is mapped from its snapshot and input, which were checked when it was admitted.
 */
async function jobSpec(store: Store, job: Job): Promise<RenderSpec> {
  const stored = await store.generations.renderSpec(job.id);
  if (stored) return stored;
  const blocks = 'text' in job.input ? null : jobBlocks(job.template, job.input);
  return specOf(job.template, blocks ? { blocks } : { text: (job.input as { text: string }).text });
}

async function requestFor(d: RunnerDeps, job: Job, spec: RenderSpec): Promise<RenderRequest> {
  return {
    output: job.kind,
    spec,
    ...(await renderResources(d.store, d.blobs, { accountId: job.accountId, mode: job.mode }, spec)),
    createdAt: job.createdAt,
    limits: {
      maxPages: d.config.maxPages,
      maxBytes: d.config.pdfMaxBytes,
      previewPages: d.config.previewPages,
    },
    jobId: job.id,
  };
}

/**
 * The sweeper: outputs past their retention are deleted (the job stays completed and answers
 * 410 from its stored expiry), and outputs no job holds are deleted once their job can no longer
 * write them (a crash between writing and committing, a commit that lost).
 */
export async function sweep(d: {
  store: Store;
  blobs: BlobStore;
  now: () => Date;
  log: Logger;
}): Promise<{ expired: number; orphans: number }> {
  let expired = 0;
  for (;;) {
    const batch = await d.store.generations.expired(d.now(), 100);
    for (const { id, blobKey } of batch) {
      await d.blobs.delete(blobKey);
      await d.store.generations.clearBlob(id, blobKey, d.now());
      expired++;
    }
    if (batch.length < 100) break;
  }
  let orphans = 0;
  for (const prefix of ['outputs/', 'previews/']) {
    for await (const key of d.blobs.list(prefix)) {
      const jobId = key.split('/')[2];
      // Live first: a job finishing between the two reads has its output committed before it stops being live.
      if (!jobId || (await d.store.generations.isLive(jobId)) || (await d.store.generations.ownsBlob(key)))
        continue;
      await d.blobs.delete(key);
      orphans++;
    }
  }
  if (expired || orphans) d.log.info({ expired, orphans }, 'sweeper deleted outputs');
  const keys = await d.store.idempotency.sweep(d.now(), IDEMPOTENCY.ttlMs);
  if (keys) d.log.info({ keys }, 'sweeper forgot idempotency keys past 24 h');
  return { expired, orphans };
}

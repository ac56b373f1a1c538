// Table types for Kysely. Dates are ISO 8601 UTC strings (they sort as text on both dialects);
// amounts are integer milli-sheets; booleans are 0/1; JSON is text.
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  plan: string;
  plan_period_days: number | null;
  plan_anchor: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  mode: string;
  name: string;
  key_hash: string;
  display_prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface TemplatesTable {
  id: string;
  account_id: string;
  mode: string;
  name: string;
  version: number;
  kind: string;
  model: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface FontsTable {
  id: string;
  account_id: string | null;
  name: string;
  family: string;
  premium: number;
  license: string;
  scripts: string;
  glyph_count: number;
  codepoints: number;
  source: string;
  location: string;
  sha256: string;
  bytes: number;
  created_at: string;
}

export interface PlanRequestsTable {
  id: string;
  account_id: string;
  /** The plan asked for, and its period in days (null for a plan without one, or the plan's longest). */
  plan: string;
  period_days: number | null;
  /** What the owner wrote with it (may be empty). */
  note: string;
  /** pending, approved, refused or withdrawn. */
  status: string;
  /** The dashboard user who asked. */
  requested_by: string | null;
  /** The account's plan when it was asked. */
  from_plan: string;
  /** The operator's reason for a refusal (or a note with an approval). */
  decision_note: string | null;
  decided_at: string | null;
  created_at: string;
}

export interface HandsTable {
  id: string;
  account_id: string;
  name: string;
  /** The sample sheet's layout code (SCR1-BASIC-A4). */
  sheet: string;
  /** JSON: HandScan[]. */
  scans: string;
  /** JSON: HandEdits. */
  edits: string;
  font_id: string | null;
  built_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AssetsTable {
  id: string;
  account_id: string;
  mode: string;
  type: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  blob_key: string;
  created_at: string;
}

export interface GenerationsTable {
  id: string;
  account_id: string;
  mode: string;
  kind: string;
  status: string;
  template_id: string;
  template_revision: number;
  template_snapshot: string;
  input: string;
  input_hash: string;
  pages: number | null;
  credits_milli: number | null;
  blob_key: string | null;
  /** The stored output's SHA-256 (hex) and length; null before completion (or for older jobs). */
  blob_sha256: string | null;
  blob_bytes: number | null;
  attempt: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  expires_at: string | null;
  /** The API instance that admitted the job (farm mode), or null. */
  admitted_by: string | null;
  /** The render specification as JSON; null for a job admitted before specs were stored. */
  render_spec: string | null;
  /** The integrator's metadata as a JSON object of strings; null when none was sent. */
  metadata: string | null;
  /** The request that created the job (`req_…`), for the logs; null for older jobs. */
  request_id: string | null;
  /** The batch the job is a row of, and its index there (from 0); null for a job of its own. */
  batch_id: string | null;
  row_index: number | null;
  /** The hand's seed a batch row was written with (its template's own for other jobs: null). */
  seed: number | null;
  /** Which of its row's documents a batch job is: `letter` or `envelope`; null for other jobs. */
  part: string | null;
}

export interface BatchesTable {
  id: string;
  account_id: string;
  mode: string;
  template_id: string;
  template_revision: number;
  /** `queued`, `processing`, `completed` or `cancelled`: where its rows stand, kept as they move. */
  status: string;
  row_count: number;
  /** Rows not yet ended: counted off in each row's final transaction; the batch ends at 0. */
  rows_left: number;
  /** 1: every row's own end is an event too (generation.completed, generation.failed). */
  row_events: number;
  merge: number;
  /** The template of every row's envelope; null when the rows have none. */
  envelope_template_id: string | null;
  metadata: string | null;
  admitted_by: string | null;
  request_id: string | null;
  created_at: string;
  updated_at: string;
  /** When its last row ended. */
  completed_at: string | null;
  cancelled_at: string | null;
}

export interface IdempotencyKeysTable {
  account_id: string;
  mode: string;
  key: string;
  /** `POST /api/v1/generations`: where the key was first used. */
  endpoint: string;
  /** SHA-256 (hex) of the endpoint and the request body. */
  fingerprint: string;
  /** `running` while its first request is being answered, `done` once its answer is kept. */
  state: string;
  /** A token of the request that holds the key; only it may settle or release it. */
  owner: string;
  /** Until when a running request holds the key; after that another may take it over. */
  lease_until: string;
  response_status: number | null;
  /** JSON object of the response headers that are replayed (Location). */
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
}

export interface BalancesTable {
  account_id: string;
  mode: string;
  extra_milli: number;
  plan_used_milli: number;
  plan_period_start: string | null;
  updated_at: string;
}

export interface LedgerTable {
  id: string;
  account_id: string;
  mode: string;
  kind: string;
  job_id: string | null;
  plan_milli: number;
  extra_milli: number;
  total_milli: number;
  pages: number;
  note: string;
  created_at: string;
}

export interface UsageDailyTable {
  account_id: string;
  mode: string;
  day: string;
  requests: Generated<number>;
  generations: Generated<number>;
  successful_generations: Generated<number>;
  failed_generations: Generated<number>;
  cancelled_generations: Generated<number>;
  pages: Generated<number>;
  credits_milli: Generated<number>;
  renders: Generated<number>;
  svg_renders: Generated<number>;
  png_renders: Generated<number>;
  previews: Generated<number>;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  mode: string;
  url: string;
  /** `whsec_…`: the HMAC key of its signatures (it must be read back to sign). */
  secret: string;
  /** JSON array of the event types it takes. */
  events: string;
  description: string;
  created_at: string;
  removed_at: string | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  account_id: string;
  mode: string;
  job_id: string;
  /** The exact bytes every try sends. */
  body: string;
  /** `pending`, `delivered` or `failed`. */
  status: string;
  /** Tries made so far, redeliveries included. */
  attempts: number;
  /** `attempts` when the retry schedule last started (a redelivery starts it again). */
  schedule_from: number;
  next_attempt_at: string | null;
  /** A dispatcher holds the delivery until then while it sends it. */
  lease_until: string | null;
  lease_owner: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface MembershipsTable {
  account_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface InvitationsTable {
  id: string;
  account_id: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  templates: TemplatesTable;
  fonts: FontsTable;
  hands: HandsTable;
  plan_requests: PlanRequestsTable;
  assets: AssetsTable;
  generations: GenerationsTable;
  batches: BatchesTable;
  balances: BalancesTable;
  ledger: LedgerTable;
  usage_daily: UsageDailyTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
}

export const USAGE_COUNTERS = [
  'requests',
  'generations',
  'successful_generations',
  'failed_generations',
  'cancelled_generations',
  'pages',
  'credits_milli',
  'renders',
  'svg_renders',
  'png_renders',
  'previews',
] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

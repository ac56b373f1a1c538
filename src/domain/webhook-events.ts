// The events a webhook endpoint may take, alone: what the command line offers in its help, which
// loads nothing else (src/domain/webhooks.ts re-exports them).
export const WEBHOOK_EVENTS = [
  'generation.completed',
  'generation.failed',
  'preview.completed',
  'preview.failed',
  'batch.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

// A real webhook receiver on an ephemeral port, as an integrator would write one: it verifies
// each delivery's signature over the raw body with the client's helper, processes each event id
// once, and answers what the test's `answer` decides for this try (a status, or hold the
// connection without answering).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type BatchWebhookEvent,
  verifyWebhook,
  type WebhookEvent,
  type WebhookTestEvent,
} from 'scriptorium/client';
import type { Test } from 'tap';

export interface Received {
  eventId: string;
  deliveryId: string;
  attempt: number;
  event: WebhookEvent;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Receiver {
  url: string;
  /** Every delivery that arrived, in order. */
  received: Received[];
  /** Events processed, once each, in order. */
  processed: WebhookEvent[];
  /** Test events (sent from the dashboard), answered 200 and kept apart from the job events. */
  tests: { event: WebhookTestEvent; deliveryId: string }[];
  /** Batch events (batch.completed), answered 200 and kept apart from the job events. */
  batches: BatchWebhookEvent[];
  /** Deliveries whose signature did not verify. */
  refused: string[];
  close(): Promise<void>;
}

/** `process`: whether to process the event before answering (a receiver that is slow after doing its work). */
export type Answer = { status: number; delayMs?: number } | 'hold';

export async function startReceiver(
  t: Test,
  secret: () => string,
  answer: (r: Received, seen: number) => Answer = () => ({ status: 200 }),
): Promise<Receiver> {
  const received: Received[] = [];
  const processed: WebhookEvent[] = [];
  const refused: string[] = [];
  const tests: Receiver['tests'] = [];
  const batches: BatchWebhookEvent[] = [];
  const seenIds = new Set<string>();
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: WebhookEvent | BatchWebhookEvent | WebhookTestEvent;
      try {
        verified = verifyWebhook(body, req.headers['scriptorium-signature'] as string | undefined, secret());
      } catch (err) {
        refused.push((err as Error).message);
        res.writeHead(400).end();
        return;
      }
      if (verified.type === 'webhook.test') {
        tests.push({ event: verified, deliveryId: String(req.headers['scriptorium-delivery-id']) });
        res.writeHead(200).end();
        return;
      }
      if (verified.type === 'batch.completed') {
        batches.push(verified);
        res.writeHead(200).end();
        return;
      }
      const event = verified;
      const r: Received = {
        eventId: event.id,
        deliveryId: String(req.headers['scriptorium-delivery-id']),
        attempt: Number(req.headers['scriptorium-attempt']),
        event,
        headers: req.headers,
        body,
      };
      received.push(r);
      const a = answer(r, received.filter((x) => x.deliveryId === r.deliveryId).length);
      if (a === 'hold') {
        held.push(res);
        return;
      }
      // Processed once per event id, whatever the answer says about this try.
      if (a.status < 300 || a.delayMs) {
        if (!seenIds.has(event.id)) {
          seenIds.add(event.id);
          processed.push(event);
        }
      }
      setTimeout(() => res.writeHead(a.status).end(), a.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  t.teardown(close);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    processed,
    tests,
    batches,
    refused,
    close,
  };
}

export async function until(
  what: string,
  done: () => boolean | Promise<boolean>,
  ms = 30_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

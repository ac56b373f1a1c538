// Webhook endpoints of the account in the chosen mode, for its owners: add one (its signing secret
// shown once), send it a test event, delete it, and the recent deliveries with what each try got.
import { useCallback, useEffect, useState } from 'react';
import { type CallError, call, when } from './api.ts';
import { Confirm } from './keys.tsx';
import { Field, FormError, Outcome, ShownOnce, Table, useForm } from './ui.tsx';

const EVENTS = [
  { type: 'generation.completed', label: 'A PDF job completed' },
  { type: 'generation.failed', label: 'A PDF job failed' },
  { type: 'preview.completed', label: 'A preview completed' },
  { type: 'preview.failed', label: 'A preview failed' },
] as const;

interface Endpoint {
  id: string;
  mode: 'live' | 'test';
  url: string;
  events: string[];
  description: string;
  createdAt: string;
  secretPrefix: string;
}

interface Delivery {
  id: string;
  eventType: string;
  endpointId: string;
  jobId: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
}

/** How often the deliveries are read again while one of them is still on its way. */
const WATCH_MS = 2000;

export function WebhooksPage(props: { accountId: string; mode: 'live' | 'test'; owner: boolean }) {
  const { accountId, mode, owner } = props;
  const [list, setList] = useState<{ data: Endpoint[]; max: number } | null>(null);
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [made, setMade] = useState<(Endpoint & { secret: string }) | null>(null);
  const [events, setEvents] = useState<string[]>(EVENTS.map((e) => e.type));
  const [confirming, setConfirming] = useState<Endpoint | null>(null);
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState('');

  const loadDeliveries = useCallback(
    () =>
      call<{ data: Delivery[] }>(
        'GET',
        `/accounts/${accountId}/webhooks/deliveries?mode=${mode}&limit=20`,
      ).then(
        (page) => setDeliveries(page.data),
        (e: CallError) => setProblem(e.message),
      ),
    [accountId, mode],
  );
  const load = useCallback(async () => {
    try {
      setList(await call('GET', `/accounts/${accountId}/webhooks?mode=${mode}`));
      await loadDeliveries();
    } catch (e) {
      setProblem((e as CallError).message);
    }
  }, [accountId, mode, loadDeliveries]);
  useEffect(() => {
    setMade(null);
    setProblem('');
    setDone('');
    setList(null);
    setDeliveries(null);
    if (owner) void load();
  }, [load, owner]);
  // A delivery on its way is watched until it is delivered or failed.
  const waiting = deliveries?.some((d) => d.status === 'pending') ?? false;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void loadDeliveries(), WATCH_MS);
    return () => clearInterval(timer);
  }, [waiting, loadDeliveries]);

  const form = useForm(
    (v) =>
      call<Endpoint & { secret: string }>('POST', `/accounts/${accountId}/webhooks`, {
        mode,
        url: v.url,
        events,
        ...(v.description ? { description: v.description } : {}),
      }),
    (e) => {
      setMade(e);
      setEvents(EVENTS.map((x) => x.type));
      void load();
    },
  );

  if (!owner)
    return (
      <main>
        <h1>Webhooks</h1>
        <p className="notice">Only an owner of this account manages its webhook endpoints.</p>
      </main>
    );

  const urlOf = (id: string) => list?.data.find((e) => e.id === id)?.url ?? 'a deleted endpoint';
  const full = list !== null && list.data.length >= list.max;
  /** A change, then the list again; the outcome is said once the list shows it. */
  const act = async (what: () => Promise<unknown>, success: string) => {
    setProblem('');
    setDone('');
    try {
      await what();
      await load();
      setDone(success);
    } catch (e) {
      setProblem((e as CallError).message);
      void load();
    }
  };

  return (
    <main>
      <h1>Webhooks</h1>
      <p className="lead">
        {mode === 'test'
          ? 'Test endpoints hear when jobs made with test keys end. '
          : 'Live endpoints hear when jobs made with live keys end. '}
        Each delivery is signed with the endpoint’s secret; see the webhooks guide to verify it.
      </p>
      {made ? (
        <ShownOnce
          title={`The signing secret of ${made.url}`}
          text="Copy it now into your server’s configuration: it is shown only this once. Your endpoint checks each delivery’s Scriptorium-Signature with it."
          value={made.secret}
          copyLabel="Copy secret"
          testId="new-secret"
          onDone={() => setMade(null)}
        />
      ) : null}
      <section aria-labelledby="add-hook">
        <h2 id="add-hook">Add a {mode} endpoint</h2>
        {full ? (
          <p className="notice" role="status">
            This account has {list.data.length} endpoints, the most it may have. Delete one to add another.
          </p>
        ) : null}
        <form onSubmit={form.onSubmit} noValidate>
          <Field
            label="Endpoint URL"
            name="url"
            type="url"
            error={form.errors.url}
            hint="Where the events are sent with POST: https://… on your server."
            required
          />
          <Field label="Description (optional)" name="description" error={form.errors.description} />
          <fieldset className="group">
            <legend>Events it hears</legend>
            {EVENTS.map((e) => (
              <div className="check" key={e.type}>
                <input
                  type="checkbox"
                  id={`event-${e.type}`}
                  checked={events.includes(e.type)}
                  onChange={(x) =>
                    setEvents((now) =>
                      x.target.checked ? [...now, e.type] : now.filter((t) => t !== e.type),
                    )
                  }
                />
                <label htmlFor={`event-${e.type}`}>
                  {e.label} <code>{e.type}</code>
                </label>
              </div>
            ))}
            {form.errors.events ? (
              <p className="error">{form.errors.events.replace(/^events /, 'The events it hears ')}</p>
            ) : null}
          </fieldset>
          <FormError message={form.errors.form ?? form.errors.mode} />
          <button type="submit" className="primary" disabled={form.busy || full || events.length === 0}>
            Add endpoint
          </button>
        </form>
      </section>
      <section aria-labelledby="hook-list">
        <h2 id="hook-list">{mode === 'test' ? 'Test endpoints' : 'Live endpoints'}</h2>
        <Outcome problem={problem} done={done} />
        {list && list.data.length === 0 ? <p>No {mode} endpoints yet.</p> : null}
        {list && list.data.length > 0 ? (
          <Table columns={['URL', 'Description', 'Events', 'Secret', 'Added']} actions>
            {list.data.map((e) => (
              <tr key={e.id}>
                <td className="wrap">{e.url}</td>
                <td>{e.description || '—'}</td>
                <td>{e.events.length === EVENTS.length ? 'All' : e.events.join(', ')}</td>
                <td>
                  <code>{e.secretPrefix}</code>
                </td>
                <td>{when(e.createdAt)}</td>
                <td className="actions">
                  <button
                    type="button"
                    onClick={() =>
                      act(
                        () => call('POST', `/accounts/${accountId}/webhooks/${e.id}/test?mode=${mode}`),
                        `Sent a test event to ${e.url}; its delivery is listed below.`,
                      )
                    }
                  >
                    Send test event<span className="visually-hidden"> to {e.url}</span>
                  </button>
                  <button type="button" className="danger" onClick={() => setConfirming(e)}>
                    Delete<span className="visually-hidden"> {e.url}</span>
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        ) : null}
      </section>
      <section aria-labelledby="delivery-list">
        <h2 id="delivery-list">Recent deliveries</h2>
        {deliveries && deliveries.length === 0 ? <p>No {mode} deliveries yet.</p> : null}
        {deliveries && deliveries.length > 0 ? (
          <Table columns={['Event', 'Endpoint', 'Status', 'Tries', 'Last answer', 'Sent']}>
            {deliveries.map((d) => (
              <tr key={d.id} data-testid="delivery">
                <td>
                  <code>{d.eventType}</code>
                  {d.jobId ? <span className="hint"> {d.jobId}</span> : null}
                </td>
                <td className="wrap">{urlOf(d.endpointId)}</td>
                <td className={`status-${d.status}`}>{statusOf(d)}</td>
                <td>{d.attempts}</td>
                <td>{d.lastStatus !== null ? `HTTP ${d.lastStatus}` : (d.lastError ?? '—')}</td>
                <td>{when(d.createdAt)}</td>
              </tr>
            ))}
          </Table>
        ) : null}
      </section>
      {confirming ? (
        <Confirm
          title={`Delete the endpoint ${confirming.url}?`}
          text="It hears no more events from the moment you confirm, and deliveries still waiting for it fail."
          action="Delete endpoint"
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const e = confirming;
            setConfirming(null);
            void act(
              () => call('POST', `/accounts/${accountId}/webhooks/${e.id}/delete?mode=${mode}`),
              `Deleted the endpoint ${e.url}.`,
            );
          }}
        />
      ) : null}
    </main>
  );
}

function statusOf(d: Delivery): string {
  if (d.status === 'delivered') return 'Delivered';
  if (d.status === 'failed') return 'Failed';
  if (d.attempts === 0) return 'Sending';
  return d.nextAttemptAt ? `Retrying at ${when(d.nextAttemptAt).replace(/^.*, /, '')}` : 'Retrying';
}

// API keys of the account in the chosen mode: create (the key shown once, with a copy button),
// name, revoke, and when each was created and last used; the account's key limit said plainly.
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ApiKey, type CallError, call, when } from './api.ts';
import { Field, FormError, ShownOnce, Table, useForm } from './ui.tsx';

interface KeyList {
  data: ApiKey[];
  active: number;
  max: number;
}

export function Keys(props: { accountId: string; mode: 'live' | 'test' }) {
  const { accountId, mode } = props;
  const [list, setList] = useState<KeyList | null>(null);
  const [made, setMade] = useState<(ApiKey & { key: string }) | null>(null);
  const [confirming, setConfirming] = useState<ApiKey | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const load = useCallback(
    () =>
      call<KeyList>('GET', `/accounts/${accountId}/keys?mode=${mode}`).then(setList, (e: CallError) =>
        setMessage({ text: e.message, error: true }),
      ),
    [accountId, mode],
  );
  useEffect(() => {
    setMade(null);
    setMessage(null);
    void load();
  }, [load]);
  const form = useForm(
    (v) => call<ApiKey & { key: string }>('POST', `/accounts/${accountId}/keys`, { mode, name: v.name }),
    (k) => {
      setMade(k);
      void load();
    },
  );
  const full = list !== null && list.active >= list.max;
  return (
    <main>
      <h1>API keys</h1>
      <p className="lead">
        {mode === 'test'
          ? 'Test keys see only test templates, jobs and balances, and spend test sheets.'
          : 'Live keys make billed documents. Keep them on your server, never in a browser or an app.'}
      </p>
      {made ? (
        <ShownOnce
          title={`Your new key “${made.name}”`}
          text="Copy it now and keep it on your server: it is shown only this once. If you lose it, revoke it and create another."
          value={made.key}
          copyLabel="Copy key"
          testId="new-key"
          onDone={() => setMade(null)}
        />
      ) : null}
      <section aria-labelledby="create-key">
        <h2 id="create-key">Create a {mode} key</h2>
        {full ? (
          <p className="notice" role="status">
            This account has {list.active} active keys, the most it may have. Revoke a key you no longer use
            to create another.
          </p>
        ) : null}
        <form onSubmit={form.onSubmit} className="inline" noValidate>
          <Field
            label="Key name"
            name="name"
            error={form.errors.name}
            hint="Where it will be used, such as “production server”."
            required
          />
          <button type="submit" className="primary" disabled={form.busy || full}>
            Create key
          </button>
        </form>
        <FormError message={form.errors.form ?? form.errors.mode} />
      </section>
      <section aria-labelledby="key-list">
        <h2 id="key-list">{mode === 'test' ? 'Test keys' : 'Live keys'}</h2>
        {message ? (
          <p className={message.error ? 'error' : 'success'} role="status">
            {message.text}
          </p>
        ) : null}
        {list && list.data.length === 0 ? <p>No {mode} keys yet.</p> : null}
        {list && list.data.length > 0 ? (
          <Table columns={['Name', 'Key', 'Created', 'Last used', 'State']} actions>
            {list.data.map((k) => (
              <tr key={k.id} className={k.revokedAt ? 'revoked' : undefined}>
                <td>{k.name}</td>
                <td>
                  <code>{k.displayPrefix}…</code>
                </td>
                <td>{when(k.createdAt)}</td>
                <td>{when(k.lastUsedAt)}</td>
                <td>{k.revokedAt ? `Revoked ${when(k.revokedAt)}` : 'Active'}</td>
                <td>
                  {k.revokedAt ? null : (
                    <button type="button" className="danger" onClick={() => setConfirming(k)}>
                      Revoke<span className="visually-hidden"> {k.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        ) : null}
      </section>
      {confirming ? (
        <Confirm
          title={`Revoke “${confirming.name}”?`}
          text={`Requests with ${confirming.displayPrefix}… are refused from the moment you confirm. This cannot be undone.`}
          action="Revoke key"
          onCancel={() => setConfirming(null)}
          onConfirm={async () => {
            const k = confirming;
            setConfirming(null);
            try {
              await call('POST', `/accounts/${accountId}/keys/${k.id}/revoke`);
              setMessage({ text: `Revoked “${k.name}”.`, error: false });
            } catch (e) {
              setMessage({ text: (e as CallError).message, error: true });
            }
            void load();
          }}
        />
      ) : null}
    </main>
  );
}

/** A modal question; Escape or Cancel drops it, and focus starts on Cancel (its first button). */
export function Confirm(props: {
  title: string;
  text: string;
  action: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onCancel={props.onCancel}>
      <h2 id="confirm-title">{props.title}</h2>
      <p>{props.text}</p>
      <div className="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={props.onConfirm}>
          {props.action}
        </button>
      </div>
    </dialog>
  );
}

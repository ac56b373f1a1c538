// The people of the account: members, and (for owners) invitations to send and withdraw.
import { useCallback, useEffect, useState } from 'react';
import { type CallError, call, type Invitation, type Member, when } from './api.ts';
import { Confirm } from './keys.tsx';
import { CopyButton, Field, FormError, Table, useForm } from './ui.tsx';

export function Members(props: { accountId: string; owner: boolean; me: string }) {
  const { accountId, me } = props;
  const [removing, setRemoving] = useState<Member | null>(null);
  const [data, setData] = useState<{ members: Member[]; invitations: Invitation[] } | null>(null);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const [withdrawing, setWithdrawing] = useState<Invitation | null>(null);
  const [problem, setProblem] = useState('');
  const load = useCallback(
    () =>
      call<{ members: Member[]; invitations: Invitation[] }>('GET', `/accounts/${accountId}/members`).then(
        setData,
        (e: CallError) => setProblem(e.message),
      ),
    [accountId],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const form = useForm(
    (v) =>
      call<Invitation & { url: string }>('POST', `/accounts/${accountId}/invitations`, {
        email: v.email,
        role: v.role,
      }),
    (inv) => {
      setLink({ email: inv.email, url: new URL(inv.url, location.origin).toString() });
      void load();
    },
  );
  return (
    <main>
      <h1>Members</h1>
      <FormError message={problem} />
      <Table columns={['Name', 'Email', 'Role', 'Joined']} actions>
        {data?.members.map((m) => (
          <tr key={m.id}>
            <td>{m.name}</td>
            <td>{m.email}</td>
            <td>
              {props.owner ? (
                <select
                  aria-label={`Role of ${m.name}`}
                  value={m.role}
                  onChange={async (e) => {
                    const role = e.currentTarget.value;
                    setProblem('');
                    await call('POST', `/accounts/${accountId}/members/${m.id}/role`, { role }).catch(
                      (err: CallError) => setProblem(err.message),
                    );
                    void load();
                  }}
                >
                  <option value="member">member</option>
                  <option value="owner">owner</option>
                </select>
              ) : (
                m.role
              )}
            </td>
            <td>{when(m.joinedAt)}</td>
            <td className="actions">
              {m.id === me || props.owner ? (
                <button type="button" className="danger" onClick={() => setRemoving(m)}>
                  {m.id === me ? 'Leave the account' : 'Remove'}
                  {m.id === me ? null : <span className="visually-hidden"> {m.name}</span>}
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      {props.owner ? (
        <>
          <section aria-labelledby="invite">
            <h2 id="invite">Invite someone</h2>
            <form onSubmit={form.onSubmit} className="inline" noValidate>
              <Field label="Their email" name="email" type="email" error={form.errors.email} required />
              <div className="field">
                <label htmlFor="invite-role">Role</label>
                <select id="invite-role" name="role" defaultValue="member">
                  <option value="member">Member: everything but inviting people</option>
                  <option value="owner">Owner: also invites people</option>
                </select>
              </div>
              <button type="submit" className="primary" disabled={form.busy}>
                Create invitation
              </button>
            </form>
            <FormError message={form.errors.form ?? form.errors.role} />
            {link ? (
              <div className="new-key" role="status">
                <p>Send this link to {link.email}. It works once, for 7 days, and only for that address:</p>
                <p>
                  <code className="secret" data-testid="invite-link">
                    {link.url}
                  </code>
                </p>
                <CopyButton text={link.url} label="Copy link" />
              </div>
            ) : null}
          </section>
          <section aria-labelledby="pending">
            <h2 id="pending">Open invitations</h2>
            {data && data.invitations.length === 0 ? <p>None.</p> : null}
            <ul>
              {data?.invitations.map((i) => (
                <li key={i.id}>
                  {i.email} ({i.role}), until {when(i.expiresAt)}{' '}
                  <button type="button" className="danger" onClick={() => setWithdrawing(i)}>
                    Withdraw<span className="visually-hidden"> the invitation of {i.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : (
        <p>Only an owner of the account can invite people.</p>
      )}
      {removing ? (
        <Confirm
          title={removing.id === me ? 'Leave this account?' : `Remove ${removing.name} from the account?`}
          text={
            removing.id === me
              ? 'You lose access to its keys, templates and jobs until an owner invites you again.'
              : 'They lose access at once; their sessions stay open for their other accounts.'
          }
          action={removing.id === me ? 'Leave' : 'Remove'}
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            const m = removing;
            setRemoving(null);
            setProblem('');
            try {
              await call('POST', `/accounts/${accountId}/members/${m.id}/remove`);
              if (m.id === me) location.assign('/dashboard/keys');
            } catch (err) {
              setProblem((err as CallError).message);
            }
            void load();
          }}
        />
      ) : null}
      {withdrawing ? (
        <Confirm
          title={`Withdraw the invitation of ${withdrawing.email}?`}
          text="Its link stops working at once."
          action="Withdraw"
          onCancel={() => setWithdrawing(null)}
          onConfirm={async () => {
            const i = withdrawing;
            setWithdrawing(null);
            await call('POST', `/accounts/${accountId}/invitations/${i.id}/revoke`).catch((e: CallError) =>
              setProblem(e.message),
            );
            void load();
          }}
        />
      ) : null}
    </main>
  );
}

// The account's plan where it matters (docs/decisions.md, "A hand for every plan"): what the plan
// gives a hand, and the way to a plan that includes personal fonts: an owner's request, which an
// operator approves or refuses; its state (pending, approved, refused with the reason) shown here.
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type CallError, call, when } from './api.ts';
import { Outcome } from './ui.tsx';

interface PlanChoice {
  id: string;
  name: string;
  periods: number[];
  sheetsPerPeriod: Record<string, number>;
  personalFonts: boolean;
}

interface PlanRequestView {
  id: string;
  plan: string;
  periodDays: number | null;
  note: string;
  status: 'pending' | 'approved' | 'refused' | 'withdrawn';
  decisionNote: string | null;
  decidedAt: string | null;
  createdAt: string;
}

interface Plans {
  plan: { id: string; name: string; personalFonts: boolean };
  plans: PlanChoice[];
  data: PlanRequestView[];
}

/** The account's plan as a hand sees it, and a request for one that includes personal fonts. */
export function PlanForHands(props: { accountId: string; owner: boolean; onChange?: () => void }) {
  const base = `/accounts/${props.accountId}/plan-requests`;
  const [plans, setPlans] = useState<Plans | null>(null);
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const { onChange } = props;
  const load = useCallback(
    () => call<Plans>('GET', base).then(setPlans, (e: CallError) => setProblem(e.message)),
    [base],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const latest = plans?.data[0];
  // Once a request is approved, the page's other figures (the plan, the hands' fonts) change too.
  useEffect(() => {
    if (latest?.status === 'approved') onChange?.();
  }, [latest?.status, onChange]);
  if (!plans) return null;
  const eligible = plans.plans.filter((p) => p.personalFonts);
  const nameOf = (id: string) => plans.plans.find((p) => p.id === id)?.name ?? id;

  const ask = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const [plan, period] = String(data.get('plan') ?? '').split(':');
    setProblem('');
    setDone('');
    setBusy(true);
    try {
      await call('POST', base, {
        plan,
        ...(period ? { period: Number(period) } : {}),
        note: String(data.get('note') ?? ''),
      });
      setDone('Requested: an operator will approve or refuse it, and you will see it here.');
      await load();
    } catch (err) {
      setProblem((err as CallError).message);
    } finally {
      setBusy(false);
    }
  };
  const withdraw = async (id: string) => {
    setProblem('');
    setDone('');
    try {
      await call('POST', `${base}/${id}/withdraw`);
      setDone('Withdrawn.');
      await load();
    } catch (err) {
      setProblem((err as CallError).message);
    }
  };
  return (
    <section aria-labelledby="plan-for-hands" className="notice" data-testid="hands-plan">
      <h2 id="plan-for-hands">Your plan: {plans.plan.name}</h2>
      {plans.plan.personalFonts ? (
        <p>Your plan includes personal fonts: live and test keys write with the hands you build.</p>
      ) : (
        <p>
          On this plan you can make, edit and build a hand, and your <strong>test keys</strong> write with it.
          Writing with it through <strong>live keys</strong> needs a plan that includes personal fonts (
          {eligible.map((p) => p.name).join(' or ')}).
        </p>
      )}
      {latest ? (
        <p data-testid="plan-request-state" role="status">
          {latest.status === 'pending'
            ? `Requested ${nameOf(latest.plan)} on ${when(latest.createdAt)}: waiting for an operator.`
            : latest.status === 'approved'
              ? `Your request for ${nameOf(latest.plan)} was approved on ${when(latest.decidedAt)}.`
              : latest.status === 'refused'
                ? `Your request for ${nameOf(latest.plan)} was refused on ${when(latest.decidedAt)}: ${latest.decisionNote ?? ''}`
                : `Your request for ${nameOf(latest.plan)} was withdrawn.`}
          {latest.status === 'pending' && props.owner ? (
            <>
              {' '}
              <button type="button" onClick={() => void withdraw(latest.id)}>
                Withdraw the request
              </button>
            </>
          ) : null}
        </p>
      ) : null}
      {!plans.plan.personalFonts && latest?.status !== 'pending' ? (
        props.owner ? (
          <form onSubmit={ask} className="inline">
            <div className="field">
              <label htmlFor="plan-ask">Plan</label>
              <select
                id="plan-ask"
                name="plan"
                defaultValue={`${eligible[0]?.id}:${eligible[0]?.periods.at(-1) ?? ''}`}
              >
                {eligible.flatMap((p) =>
                  (p.periods.length ? p.periods : [null]).map((days) => (
                    <option key={`${p.id}:${days}`} value={`${p.id}:${days ?? ''}`}>
                      {p.name}
                      {days ? `, ${days} days: ${p.sheetsPerPeriod[String(days)]} sheets` : ''}
                    </option>
                  )),
                )}
              </select>
            </div>
            <div className="field">
              <label htmlFor="plan-note">Note for the operator (optional)</label>
              <input id="plan-note" name="note" maxLength={500} />
            </div>
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Requesting…' : 'Request the plan'}
            </button>
          </form>
        ) : (
          <p>An owner of the account can request a plan that includes personal fonts.</p>
        )
      ) : null}
      <Outcome problem={problem} done={done} />
    </section>
  );
}

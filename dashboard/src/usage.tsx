// Usage over a range of days: the figures, the balance and plan, a chart of pages and sheets per
// day (with the same figures as a table), and, in test mode, test sheets to top up with.
import { useCallback, useEffect, useId, useState } from 'react';
import { type CallError, call } from './api.ts';
import { Field, FormError, Submit, Table, useForm } from './ui.tsx';

interface Day {
  day: string;
  pages: number;
  sheets: number;
  generations: number;
  failedGenerations: number;
}

interface Usage {
  period: { from: string; to: string; days: number };
  requests: number;
  generations: number;
  successfulGenerations: number;
  failedGenerations: number;
  cancelledGenerations: number;
  pages: number;
  creditsSpent: number;
  previews: number;
  balance: {
    subscription: {
      name: string;
      sheetsPerPeriod: number;
      sheetsUsed: number;
      periodEnd: string;
      pagesPerDay: number;
    };
    extraSheets: number;
    availableSheets: number;
    usage: { pagesToday: number };
  };
  days: Day[];
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const count = (n: number) => n.toLocaleString('en-GB', { maximumFractionDigits: 1 });

export function UsagePage(props: { accountId: string; mode: 'live' | 'test' }) {
  const { accountId, mode } = props;
  const today = Date.parse(`${isoDay(Date.now())}T00:00:00Z`);
  const [from, setFrom] = useState(isoDay(today - 29 * DAY_MS));
  const [until, setUntil] = useState(isoDay(today));
  const [usage, setUsage] = useState<Usage | null>(null);
  const [problem, setProblem] = useState('');
  const load = useCallback(() => {
    const to = isoDay(Date.parse(`${until}T00:00:00Z`) + DAY_MS);
    return call<Usage>('GET', `/accounts/${accountId}/usage?mode=${mode}&from=${from}&to=${to}`).then(
      (u) => {
        setUsage(u);
        setProblem('');
      },
      (e: CallError) => setProblem(e.message),
    );
  }, [accountId, mode, from, until]);
  useEffect(() => {
    void load();
  }, [load]);
  const topUp = useForm(
    (v) => call('POST', `/accounts/${accountId}/topups`, { sheets: Number(v.sheets) }),
    () => void load(),
  );
  const b = usage?.balance;
  return (
    <main>
      <h1>Usage</h1>
      <form className="inline" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="usage-from">From</label>
          <input
            id="usage-from"
            type="date"
            value={from}
            max={until}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="usage-until">Until (inclusive)</label>
          <input
            id="usage-until"
            type="date"
            value={until}
            min={from}
            onChange={(e) => setUntil(e.target.value)}
          />
        </div>
      </form>
      <FormError message={problem} />
      {usage && b ? (
        <>
          <dl className="figures">
            <div>
              <dt>Pages</dt>
              <dd data-testid="pages">{count(usage.pages)}</dd>
            </div>
            <div>
              <dt>Sheets spent</dt>
              <dd>{count(usage.creditsSpent)}</dd>
            </div>
            <div>
              <dt>Documents</dt>
              <dd>
                {count(usage.successfulGenerations)} made, {count(usage.failedGenerations)} failed,{' '}
                {count(usage.cancelledGenerations)} cancelled
              </dd>
            </div>
            <div>
              <dt>API requests</dt>
              <dd>{count(usage.requests)}</dd>
            </div>
          </dl>
          <Chart days={usage.days} from={usage.period.from} count={usage.period.days} />
          <h2>Balance</h2>
          <dl className="figures">
            <div>
              <dt>Plan</dt>
              <dd>{b.subscription.name}</dd>
            </div>
            <div>
              <dt>Sheets available</dt>
              <dd data-testid="available">{count(b.availableSheets)}</dd>
            </div>
            <div>
              <dt>Plan sheets this period</dt>
              <dd>
                {b.subscription.sheetsPerPeriod > 0
                  ? `${count(b.subscription.sheetsUsed)} of ${count(b.subscription.sheetsPerPeriod)}, until ${b.subscription.periodEnd.slice(0, 10)}`
                  : 'none in this plan'}
              </dd>
            </div>
            <div>
              <dt>Extra sheets</dt>
              <dd>{count(b.extraSheets)}</dd>
            </div>
          </dl>
        </>
      ) : null}
      {mode === 'test' ? (
        <section aria-labelledby="topup">
          <h2 id="topup">Add test sheets</h2>
          <p className="lead">Test sheets pay for test documents only. They cost nothing.</p>
          <form onSubmit={topUp.onSubmit} className="inline" noValidate>
            <Field
              label="Test sheets to add"
              name="sheets"
              type="number"
              error={topUp.errors.sheets}
              hint="50 to 1,000."
              required
            />
            <Submit busy={topUp.busy} error={topUp.errors.form} label="Add test sheets" working="Adding…" />
          </form>
        </section>
      ) : null}
    </main>
  );
}

/** Pages and sheets per day as bars, every day of the range, with the figures as a table too. */
function Chart(props: { days: Day[]; from: string; count: number }) {
  const title = useId();
  const byDay = new Map(props.days.map((d) => [d.day, d]));
  const start = Date.parse(`${props.from}T00:00:00Z`);
  const all = Array.from({ length: props.count }, (_, i) => {
    const day = isoDay(start + i * DAY_MS);
    return byDay.get(day) ?? { day, pages: 0, sheets: 0, generations: 0, failedGenerations: 0 };
  });
  const top = Math.max(1, ...all.flatMap((d) => [d.pages, d.sheets]));
  const [w, h, left, bottom] = [720, 200, 40, 24];
  const slot = (w - left) / all.length;
  const bar = Math.max(1, slot / 2 - 1);
  const y = (v: number) => ((h - bottom) * v) / top;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-labelledby={title}>
        <title id={title}>
          Pages and sheets per day, {props.from} to {all.at(-1)?.day}: {props.days.length} days with use, at
          most {count(top)} in a day.
        </title>
        <line x1={left} y1={h - bottom} x2={w} y2={h - bottom} className="axis" />
        <text x={left - 6} y={12} className="tick" textAnchor="end">
          {count(top)}
        </text>
        <text x={left - 6} y={h - bottom} className="tick" textAnchor="end">
          0
        </text>
        {all.map((d, i) => {
          const x = left + i * slot;
          return (
            <g key={d.day}>
              <rect x={x} y={h - bottom - y(d.pages)} width={bar} height={y(d.pages)} className="pages" />
              <rect
                x={x + bar}
                y={h - bottom - y(d.sheets)}
                width={bar}
                height={y(d.sheets)}
                className="sheets"
              />
              {i === 0 || i === all.length - 1 ? (
                <text x={x} y={h - 6} className="tick" textAnchor={i === 0 ? 'start' : 'end'}>
                  {d.day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <span className="key pages" /> pages <span className="key sheets" /> sheets
      </figcaption>
      <details>
        <summary>The figures of each day with use</summary>
        <Table columns={['Day', 'Pages', 'Sheets', 'Documents', 'Failed']}>
          {props.days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{count(d.pages)}</td>
              <td>{count(d.sheets)}</td>
              <td>{count(d.generations)}</td>
              <td>{count(d.failedGenerations)}</td>
            </tr>
          ))}
        </Table>
      </details>
    </figure>
  );
}

// Recent jobs of the account in the mode shown: status, pages, sheets, errors, the PDF to
// download and a preview's pages to look at.
import { useCallback, useEffect, useState } from 'react';
import { type CallError, call, when } from './api.ts';
import { FormError, Table } from './ui.tsx';

interface Job {
  id: string;
  kind: 'pdf' | 'preview';
  status: string;
  templateId: string;
  createdAt: string;
  completedAt?: string;
  pages?: number;
  creditsSpent?: number;
  error?: { code: string; message: string };
}

interface Page {
  data: Job[];
  hasMore: boolean;
  nextCursor: string | null;
}

const STATUSES = ['', 'queued', 'processing', 'completed', 'failed', 'cancelled'] as const;

export function Jobs(props: { accountId: string; mode: 'live' | 'test' }) {
  const { accountId, mode } = props;
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('');
  const [jobs, setJobs] = useState<Job[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const [preview, setPreview] = useState<{ id: string; pages: { page: number; data: string }[] } | null>(
    null,
  );
  const base = `/accounts/${accountId}/jobs`;
  const load = useCallback(
    (cursor?: string) =>
      call<Page>(
        'GET',
        `${base}?mode=${mode}&limit=25${status ? `&status=${status}` : ''}${cursor ? `&cursor=${cursor}` : ''}`,
      ).then(
        (p) => {
          setJobs((j) => (cursor ? [...(j ?? []), ...p.data] : p.data));
          setNext(p.hasMore ? p.nextCursor : null);
        },
        (e: CallError) => setProblem(e.message),
      ),
    [base, mode, status],
  );
  useEffect(() => {
    setPreview(null);
    void load();
  }, [load]);
  return (
    <main>
      <h1>Jobs</h1>
      <div className="field">
        <label htmlFor="jobs-status">Status</label>
        <select
          id="jobs-status"
          value={status}
          onChange={(e) => setStatus(e.target.value as (typeof STATUSES)[number])}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s || 'all'}
            </option>
          ))}
        </select>
      </div>
      <FormError message={problem} />
      {jobs && jobs.length === 0 ? (
        <p>
          No {mode} jobs{status ? ` ${status}` : ''} yet.
        </p>
      ) : null}
      {jobs && jobs.length > 0 ? (
        <Table columns={['Job', 'Kind', 'Status', 'Pages', 'Sheets', 'Created', 'Result']}>
          {jobs.map((j) => (
            <tr key={j.id}>
              <td>
                <code>{j.id}</code>
              </td>
              <td>{j.kind === 'pdf' ? 'PDF' : 'preview'}</td>
              <td className={`status-${j.status}`}>{j.status}</td>
              <td>{j.pages ?? ''}</td>
              <td>{j.creditsSpent ?? ''}</td>
              <td>{when(j.createdAt)}</td>
              <td>
                {j.error ? (
                  <span className="error">
                    {j.error.code}: {j.error.message}
                  </span>
                ) : j.status === 'completed' && j.kind === 'pdf' ? (
                  <a href={`/dashboard/v1${base}/${j.id}/download?mode=${mode}`} download={`${j.id}.pdf`}>
                    Download PDF<span className="visually-hidden"> of {j.id}</span>
                  </a>
                ) : j.status === 'completed' ? (
                  <button
                    type="button"
                    onClick={() =>
                      call<{ id: string; pages: { page: number; data: string }[] }>(
                        'GET',
                        `${base}/${j.id}/preview?mode=${mode}`,
                      ).then(setPreview, (e: CallError) => setProblem(e.message))
                    }
                  >
                    Show preview<span className="visually-hidden"> of {j.id}</span>
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      {next ? (
        <button type="button" onClick={() => void load(next)}>
          Show older jobs
        </button>
      ) : null}
      {preview ? (
        <section aria-labelledby="preview-title" className="preview">
          <h2 id="preview-title">Preview {preview.id}</h2>
          {preview.pages.map((p) => (
            <img key={p.page} src={`data:image/png;base64,${p.data}`} alt={`Page ${p.page} of the preview`} />
          ))}
        </section>
      ) : null}
    </main>
  );
}

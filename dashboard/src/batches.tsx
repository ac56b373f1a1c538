// A batch from a CSV: the file read, its columns mapped to the template's fields (a column whose
// name is a field's is mapped already), the first row drawn as the batch will draw it, the batch
// sent; then its progress, and its ZIP and merged PDF once it ended. Recent batches below.
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { type CallError, call, type TemplateSummary, when } from './api.ts';
import { badUtf8, whereNotUtf8 } from '../../src/domain/utf8.ts';
import { FormError, Table } from './ui.tsx';

interface Counts {
  total: number;
  queued: number;
  processing: number;
  completed: number;
  failed: number;
  cancelled: number;
}

interface Batch {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'cancelled';
  templateId: string;
  createdAt: string;
  rows: Counts;
  pages: number;
  creditsSpent: number;
  downloadUrl?: string;
  mergedUrl?: string;
}

interface Inspected {
  columns: string[];
  rows: number;
  targets: string[];
  suggested: (string | null)[];
}

const LEAVE_OUT = '';
const ended = (b: Batch) => b.status === 'completed' || b.status === 'cancelled';

export function BatchesPage(props: { accountId: string; mode: 'live' | 'test' }) {
  const { accountId, mode } = props;
  const base = `/accounts/${accountId}/batches`;
  const ids = useId();
  const [templates, setTemplates] = useState<TemplateSummary[]>([]);
  const [templateId, setTemplateId] = useState('');
  /** The envelope template: every row also gets an envelope in it ('' for none). */
  const [envelopeId, setEnvelopeId] = useState('');
  const [csv, setCsv] = useState<{ name: string; text: string } | null>(null);
  const [inspected, setInspected] = useState<Inspected | null>(null);
  const [columns, setColumns] = useState<(string | null)[]>([]);
  const [preview, setPreview] = useState<{ png: string; row: Record<string, unknown> } | null>(null);
  const [merge, setMerge] = useState(true);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [current, setCurrent] = useState<Batch | null>(null);
  const [recent, setRecent] = useState<Batch[]>([]);

  const fail = useCallback((e: CallError) => setProblem(e.message), []);
  const loadRecent = useCallback(
    () =>
      call<{ data: Batch[] }>('GET', `${base}?mode=${mode}&limit=10`).then((p) => setRecent(p.data), fail),
    [base, mode, fail],
  );
  useEffect(() => {
    setCurrent(null);
    void loadRecent();
    call<{ data: TemplateSummary[] }>('GET', `/accounts/${accountId}/templates?mode=${mode}&limit=100`).then(
      (p) => {
        const usable = p.data.filter((t) => t.mode !== 'document' || t.version !== 1);
        setTemplates(usable);
        setTemplateId((id) => (usable.some((t) => t.id === id) ? id : (usable[0]?.id ?? '')));
        setEnvelopeId((id) => (usable.some((t) => t.id === id) ? id : ''));
      },
      fail,
    );
  }, [accountId, mode, loadRecent, fail]);

  const envelope = useMemo(() => (envelopeId ? { envelopeTemplateId: envelopeId } : {}), [envelopeId]);

  // A new file or template: its columns looked at again, and the mapping the names suggest.
  useEffect(() => {
    setInspected(null);
    setPreview(null);
    if (!csv || !templateId) return;
    setProblem('');
    call<Inspected>('POST', `${base}/inspect`, { mode, templateId, csv: csv.text, ...envelope }).then(
      (found) => {
        setInspected(found);
        setColumns(found.suggested);
      },
      fail,
    );
  }, [base, mode, templateId, csv, envelope, fail]);

  // The first row drawn with the mapping as it stands.
  useEffect(() => {
    setPreview(null);
    if (!inspected || !csv || columns.every((c) => c === null)) return;
    const timer = setTimeout(() => {
      call<{ png: string; row: Record<string, unknown> }>('POST', `${base}/preview`, {
        mode,
        templateId,
        csv: csv.text,
        columns,
        ...envelope,
      }).then((p) => {
        setProblem('');
        setPreview(p);
      }, fail);
    }, 300);
    return () => clearTimeout(timer);
  }, [base, mode, templateId, csv, inspected, columns, envelope, fail]);

  // The batch sent: polled until it ended.
  useEffect(() => {
    if (!current || ended(current)) return;
    const timer = setTimeout(() => {
      call<Batch>('GET', `${base}/${current.id}?mode=${mode}`).then((b) => {
        setCurrent(b);
        if (ended(b)) void loadRecent();
      }, fail);
    }, 1000);
    return () => clearTimeout(timer);
  }, [base, mode, current, loadRecent, fail]);

  const submit = () => {
    if (!csv) return;
    setBusy(true);
    setProblem('');
    call<Batch>('POST', base, { mode, templateId, csv: csv.text, columns, merge, ...envelope })
      .then((b) => {
        setCurrent(b);
        void loadRecent();
      }, fail)
      .finally(() => setBusy(false));
  };
  const link = (b: Batch, what: 'download' | 'merged') => `/dashboard/v1${base}/${b.id}/${what}?mode=${mode}`;

  return (
    <main>
      <h1>Batches</h1>
      <p>
        One document for each row of a CSV file, each in its own hand (a seed of its own), each billed for its
        own pages.
      </p>
      <div className="field">
        <label htmlFor={`${ids}-template`}>Template</label>
        <select id={`${ids}-template`} value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-envelope`}>Envelopes</label>
        <select id={`${ids}-envelope`} value={envelopeId} onChange={(e) => setEnvelopeId(e.target.value)}>
          <option value="">No envelopes</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              An envelope for each row in {t.name}
            </option>
          ))}
        </select>
        <p className="hint">
          The envelope's fields are columns named envelope.name, envelope.street and so on.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-csv`}>CSV file</label>
        <input
          id={`${ids}-csv`}
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            void file.arrayBuffer().then((buffer) => {
              const bytes = new Uint8Array(buffer);
              const bad = badUtf8(bytes);
              // Read as UTF-8 regardless, a file of another encoding would turn into U+FFFD.
              if (bad) {
                setCsv(null);
                setProblem(
                  `${file.name} is not UTF-8: ${whereNotUtf8(bad)} does not start a UTF-8 character. Save it as UTF-8 (CSV UTF-8) and choose it again.`,
                );
              } else setCsv({ name: file.name, text: new TextDecoder().decode(bytes) });
            });
          }}
        />
        <p className="hint">A header row naming the columns, then one row a document.</p>
      </div>
      <FormError message={problem} />
      {inspected ? (
        <section aria-labelledby={`${ids}-map`}>
          <h2 id={`${ids}-map`}>
            Columns of {csv?.name} ({inspected.rows.toLocaleString('en-GB')} rows)
          </h2>
          <Table columns={['Column', 'Goes to']}>
            {inspected.columns.map((name, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a file's columns are its positions (two may share a name)
              <tr key={`${i}-${name}`}>
                <td>
                  <label htmlFor={`${ids}-col-${i}`}>{name}</label>
                </td>
                <td>
                  <select
                    id={`${ids}-col-${i}`}
                    value={columns[i] ?? LEAVE_OUT}
                    onChange={(e) =>
                      setColumns((c) => c.map((v, j) => (j === i ? e.target.value || null : v)))
                    }
                  >
                    <option value={LEAVE_OUT}>(left out)</option>
                    {inspected.targets.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                    <option value={`metadata.${name}`}>label: metadata.{name}</option>
                    <option value="seed">seed of the hand</option>
                  </select>
                </td>
              </tr>
            ))}
          </Table>
        </section>
      ) : null}
      {preview ? (
        <section aria-labelledby={`${ids}-preview`} className="preview">
          <h2 id={`${ids}-preview`}>First row</h2>
          <img
            src={`data:image/png;base64,${preview.png}`}
            alt="The first row's first page as the batch will write it"
          />
        </section>
      ) : null}
      {inspected ? (
        <>
          <div className="field check">
            <input
              id={`${ids}-merge`}
              type="checkbox"
              checked={merge}
              onChange={(e) => setMerge(e.currentTarget.checked)}
            />
            <label htmlFor={`${ids}-merge`}>Also one merged PDF of every document</label>
          </div>
          <button type="button" disabled={busy || !preview} onClick={submit}>
            {busy ? 'Sending…' : `Make ${inspected.rows.toLocaleString('en-GB')} documents`}
          </button>
        </>
      ) : null}
      {current ? (
        <section aria-labelledby={`${ids}-current`} aria-live="polite">
          <h2 id={`${ids}-current`}>
            Batch <code>{current.id}</code>: {current.status}
          </h2>
          <progress
            max={current.rows.total}
            value={current.rows.completed + current.rows.failed + current.rows.cancelled}
            aria-label="Rows ended"
          />
          <p>
            {current.rows.completed} of {current.rows.total} rows completed
            {current.rows.failed ? `, ${current.rows.failed} failed` : ''}
            {current.rows.cancelled ? `, ${current.rows.cancelled} cancelled` : ''}; {current.pages} pages,{' '}
            {current.creditsSpent} sheets.
          </p>
          {current.downloadUrl ? (
            <p>
              <a href={link(current, 'download')} download={`${current.id}.zip`}>
                Download ZIP
              </a>
              {current.mergedUrl ? (
                <>
                  {' · '}
                  <a href={link(current, 'merged')} download={`${current.id}.pdf`}>
                    Download merged PDF
                  </a>
                </>
              ) : null}
            </p>
          ) : null}
        </section>
      ) : null}
      {recent.length > 0 ? (
        <section aria-labelledby={`${ids}-recent`}>
          <h2 id={`${ids}-recent`}>Recent batches</h2>
          <Table columns={['Batch', 'Status', 'Rows', 'Sheets', 'Created', 'Result']}>
            {recent.map((b) => (
              <tr key={b.id}>
                <td>
                  <code>{b.id}</code>
                </td>
                <td className={`status-${b.status}`}>{b.status}</td>
                <td>
                  {b.rows.completed}/{b.rows.total}
                  {b.rows.failed ? ` (${b.rows.failed} failed)` : ''}
                </td>
                <td>{b.creditsSpent}</td>
                <td>{when(b.createdAt)}</td>
                <td>
                  {b.downloadUrl ? (
                    <a href={link(b, 'download')} download={`${b.id}.zip`}>
                      ZIP<span className="visually-hidden"> of {b.id}</span>
                    </a>
                  ) : null}
                  {b.mergedUrl ? (
                    <>
                      {' · '}
                      <a href={link(b, 'merged')} download={`${b.id}.pdf`}>
                        PDF<span className="visually-hidden"> of {b.id}</span>
                      </a>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        </section>
      ) : null}
    </main>
  );
}

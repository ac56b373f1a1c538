// The account's templates in the mode shown: each id with a copy button and ready curl and client
// lines, its JSON to export, and JSON to import as a new template or over one (a new revision).
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type CallError, call, type TemplateSummary, when } from './api.ts';
import { Builder, blankModel, type Kind, type Schemas } from './builder.tsx';
import type { Font, Image } from './schema-form.tsx';
import { CopyButton, FormError, Outcome, Table } from './ui.tsx';

type Template = TemplateSummary;

/** The input a template takes, as its own fields filled with samples: `text`, `data` or `content`. */
type Sample = Record<string, unknown>;

const indent = (text: string, by: string) => text.replaceAll('\n', `\n${by}`);

/** A curl line and a client call that send `sample` to the template: ready to run as they are. */
function snippets(t: Template, sample: Sample) {
  const origin = location.origin;
  const body = JSON.stringify({ templateId: t.id, ...sample }, null, 2);
  return {
    // Inside the shell's single quotes, a quote is closed, escaped and opened again.
    curl: `curl -s -X POST ${origin}/api/v1/generations \\\n  -H "Authorization: Bearer $SCRIPTORIUM_API_KEY" -H 'Content-Type: application/json' \\\n  -d '${body.replaceAll("'", "'\\''")}'`,
    client: `import { Scriptorium } from 'scriptorium/client';\n\nconst client = new Scriptorium({ apiKey: process.env.SCRIPTORIUM_API_KEY, baseUrl: '${origin}' });\nconst { job } = await client.generate(\n  ${indent(body, '  ')},\n  { to: 'letter.pdf' },\n);`,
  };
}

export function Templates(props: { accountId: string; mode: 'live' | 'test' }) {
  const { accountId, mode } = props;
  const [list, setList] = useState<Template[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState('');
  const [building, setBuilding] = useState<{ id?: string; model: Record<string, unknown>; n: number } | null>(
    null,
  );
  const [kit, setKit] = useState<{ schemas: Schemas; fonts: Font[]; images: Image[] } | null>(null);
  const base = `/accounts/${accountId}/templates`;
  const load = useCallback(
    () =>
      call<{ data: Template[] }>('GET', `${base}?mode=${mode}&limit=100`).then(
        (p) => setList(p.data),
        (e: CallError) => setProblem(e.message),
      ),
    [base, mode],
  );
  useEffect(() => {
    setOpen(null);
    setBuilding(null);
    void load();
  }, [load]);

  /** What the builder draws its forms from: the model's schemas, the account's fonts and images. */
  const builderKit = async () => {
    if (kit) return kit;
    const [schemas, fonts, images] = await Promise.all([
      call<Schemas>('GET', '/template-schema'),
      call<{ data: Font[] }>('GET', `/accounts/${accountId}/fonts?mode=${mode}`),
      call<{ data: Image[] }>('GET', `/accounts/${accountId}/assets?mode=${mode}`),
    ]);
    const next = { schemas, fonts: fonts.data, images: images.data };
    setKit(next);
    return next;
  };
  const build = async (kind: Kind) => {
    setProblem('');
    try {
      const k = await builderKit();
      setBuilding({ model: blankModel(kind, k.schemas, k.fonts), n: Date.now() });
    } catch (err) {
      setProblem((err as CallError).message);
    }
  };
  const edit = async (t: Template) => {
    setProblem('');
    try {
      await builderKit();
      // The export is the stored model, defaults spelled out: what the builder edits.
      const model = await call<Record<string, unknown>>('GET', `${base}/${t.id}/export?mode=${mode}`);
      setBuilding({ id: t.id, model, n: Date.now() });
    } catch (err) {
      setProblem((err as CallError).message);
    }
  };

  const send = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const file = data.get('file');
    const over = String(data.get('over') ?? '');
    setProblem('');
    setDone('');
    if (!(file instanceof File) || file.size === 0) return setProblem('Choose a template JSON file first.');
    let template: unknown;
    try {
      template = JSON.parse(await file.text());
    } catch (err) {
      return setProblem(`${file.name} is not valid JSON: ${(err as Error).message}`);
    }
    try {
      const t = over
        ? await call<Template>('POST', `${base}/${over}`, { mode, template })
        : await call<Template>('POST', base, { mode, template });
      setDone(over ? `Saved “${t.name}” as revision ${t.revision}.` : `Imported “${t.name}” as ${t.id}.`);
      form.reset();
      setOpen(t.id);
      void load();
    } catch (err) {
      setProblem((err as CallError).message);
    }
  };

  const shown = list?.find((t) => t.id === open);
  return (
    <main>
      <h1>Templates</h1>
      <p className="lead">
        A template holds all the styling; the API only reads it. Send its id with your text or data.
      </p>
      {list && list.length === 0 ? <p>No {mode} templates yet. Build one or import one below.</p> : null}
      {list && list.length > 0 ? (
        <Table columns={['Name', 'Kind', 'Revision', 'Updated', 'Template id']} actions>
          {list.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.mode === 'document' ? 'legacy v1' : t.mode}</td>
              <td>{t.revision}</td>
              <td>{when(t.updatedAt)}</td>
              <td>
                <code>{t.id}</code>
              </td>
              <td className="actions">
                <button type="button" onClick={() => void edit(t)}>
                  Edit<span className="visually-hidden"> {t.name}</span>
                </button>
                <button
                  type="button"
                  onClick={() => setOpen(open === t.id ? null : t.id)}
                  aria-expanded={open === t.id}
                >
                  Use it<span className="visually-hidden"> ({t.name})</span>
                </button>
                <a
                  href={`/dashboard/v1${base}/${t.id}/export?mode=${mode}`}
                  download={`${t.id}.template.json`}
                >
                  Export JSON<span className="visually-hidden"> of {t.name}</span>
                </a>
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      {shown ? <UseIt t={shown} from={`${base}/${shown.id}/sample?mode=${mode}`} /> : null}
      <h2>Build a template</h2>
      <div className="inline">
        <button type="button" className="primary" onClick={() => void build('simple')}>
          New simple-text template
        </button>
        <button type="button" onClick={() => void build('structured')}>
          New structured template
        </button>
        <button type="button" onClick={() => void build('legacy')}>
          New legacy v1 template
        </button>
      </div>
      {building && kit ? (
        <Builder
          key={building.n}
          accountId={accountId}
          mode={mode}
          schemas={kit.schemas}
          fonts={kit.fonts}
          images={kit.images}
          start={building}
          onSaved={(t) => {
            setOpen(t.id);
            void load();
          }}
          onClose={() => setBuilding(null)}
        />
      ) : null}
      <section aria-labelledby="import">
        <h2 id="import">Import a template</h2>
        <form onSubmit={send} className="inline" noValidate>
          <div className="field">
            <label htmlFor="template-file">Template JSON file</label>
            <input id="template-file" name="file" type="file" accept="application/json,.json" />
          </div>
          <div className="field">
            <label htmlFor="template-over">Store it as</label>
            <select id="template-over" name="over" defaultValue="">
              <option value="">a new template</option>
              {list?.map((t) => (
                <option key={t.id} value={t.id}>
                  the next revision of “{t.name}”
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="primary">
            Import
          </button>
        </form>
        <Outcome problem={problem} done={done} />
      </section>
    </main>
  );
}

function UseIt(props: { t: Template; from: string }) {
  const [sample, setSample] = useState<Sample | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    setSample(null);
    call<Sample>('GET', props.from).then(setSample, (e: CallError) => setProblem(e.message));
  }, [props.from]);
  const s = sample ? snippets(props.t, sample) : null;
  return (
    <section className="new-key" aria-labelledby="use-it">
      <h2 id="use-it">Use “{props.t.name}”</h2>
      <p>
        Its id: <code data-testid="template-id">{props.t.id}</code>{' '}
        <CopyButton text={props.t.id} label="Copy id" />
      </p>
      <p>
        {props.t.mode === 'structured'
          ? 'The data below fills every field of the template with a sample: put your own values under the same names.'
          : props.t.mode === 'simple'
            ? 'Put your own text in place of the sample letter.'
            : 'Put your own blocks in place of the sample document.'}
      </p>
      <FormError message={problem} />
      {s ? (
        <>
          <h3>With curl</h3>
          <pre data-testid="curl">{s.curl}</pre>
          <CopyButton text={s.curl} label="Copy curl" />
          <h3>With the client</h3>
          <pre data-testid="client-code">{s.client}</pre>
          <CopyButton text={s.client} label="Copy client code" />
        </>
      ) : null}
    </section>
  );
}

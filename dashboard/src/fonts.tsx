// The fonts templates can write in: the shared ones and the account's personal fonts, with the
// scripts each covers and which are premium. A personal font is added from a TTF or OTF file when
// the plan allows it (the server says whether); the engine writes a sample line with it before it
// is accepted, and the sample is shown.
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type CallError, call, upload, when } from './api.ts';
import { Confirm } from './keys.tsx';
import { CopyButton, Outcome, Table } from './ui.tsx';

interface FontView {
  id: string;
  name: string;
  family: string;
  personal: boolean;
  fromHand: boolean;
  premium: boolean;
  usable: boolean;
  scripts: string[];
  glyphCount: number;
  license: string;
  createdAt: string;
}

interface Fonts {
  data: FontView[];
  plan: string;
  premiumFonts: boolean;
  personalFonts: boolean;
  maxBytes: number;
}

interface Added {
  font: FontView;
  sample: { line: string; png: string };
}

export function FontsPage(props: { accountId: string; mode: 'live' | 'test' }) {
  const { accountId, mode } = props;
  const [fonts, setFonts] = useState<Fonts | null>(null);
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState('');
  const [added, setAdded] = useState<Added | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [deleting, setDeleting] = useState<FontView | null>(null);
  /** A change to one font, then the list again; the outcome is said once the list shows it. */
  const act = async (what: () => Promise<unknown>, said: string) => {
    setProblem('');
    setDone('');
    try {
      await what();
      await load();
      setDone(said);
    } catch (err) {
      setProblem((err as CallError).message);
    }
  };
  const base = `/accounts/${accountId}/fonts`;
  const load = useCallback(
    () => call<Fonts>('GET', `${base}?mode=${mode}`).then(setFonts, (e: CallError) => setProblem(e.message)),
    [base, mode],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const send = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const file = data.get('file');
    const name = String(data.get('name') ?? '');
    setProblem('');
    setDone('');
    setAdded(null);
    if (!(file instanceof File) || file.size === 0) return setProblem('Choose a TTF or OTF file first.');
    try {
      const a = await upload<Added>(
        `${base}?mode=${mode}&name=${encodeURIComponent(name)}`,
        file,
        'application/octet-stream',
      );
      setAdded(a);
      setDone(`Added “${a.font.name}” as ${a.font.id}.`);
      form.reset();
      void load();
    } catch (err) {
      setProblem((err as CallError).message);
    }
  };

  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
  return (
    <main>
      <h1>Fonts</h1>
      <p className="lead">
        The hands your templates can write in: the shared fonts and this account's own. Premium fonts need a
        plan that includes them.
      </p>
      {fonts ? (
        <Table columns={['Name', 'Writes', 'Kind', 'Glyphs', 'Font id']} actions>
          {fonts.data.map((f) => (
            <tr key={f.id}>
              <td>
                {renaming?.id === f.id ? (
                  <form
                    className="inline"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const name = renaming.name;
                      setRenaming(null);
                      void act(
                        () => call('POST', `${base}/${f.id}/rename`, { name }),
                        `Renamed “${f.name}” to “${name.trim()}”.`,
                      );
                    }}
                  >
                    <label className="visually-hidden" htmlFor={`rename-${f.id}`}>
                      New name of {f.name}
                    </label>
                    <input
                      id={`rename-${f.id}`}
                      value={renaming.name}
                      maxLength={120}
                      onChange={(e) => setRenaming({ id: f.id, name: e.currentTarget.value })}
                    />
                    <button type="submit">Save name</button>
                    <button type="button" onClick={() => setRenaming(null)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  f.name
                )}
              </td>
              <td>{f.scripts.join(', ') || '—'}</td>
              <td>
                {f.personal
                  ? `personal${f.license === 'trial' && !fonts.premiumFonts ? ' (test keys only on this plan)' : ''}, added ${when(f.createdAt)}`
                  : 'shared'}
                {f.premium ? ' · ★ premium' : ''}
                {f.usable ? '' : ' · not in your plan'}
              </td>
              <td>{f.glyphCount.toLocaleString('en-US')}</td>
              <td>
                <code>{f.id}</code>
              </td>
              <td className="actions">
                {f.personal ? (
                  <>
                    {f.fromHand
                      ? (['otf', 'woff2'] as const).map((format) => (
                          <a
                            key={format}
                            className="button"
                            href={`/dashboard/v1/accounts/${props.accountId}/fonts/${f.id}/file?format=${format}`}
                            download
                            data-testid={`font-${format}`}
                          >
                            {format === 'otf' ? 'OpenType' : 'WOFF2'}
                            <span className="visually-hidden"> of {f.name}</span>
                          </a>
                        ))
                      : null}
                    {fonts.personalFonts ? (
                      <button type="button" onClick={() => setRenaming({ id: f.id, name: f.name })}>
                        Rename<span className="visually-hidden"> {f.name}</span>
                      </button>
                    ) : null}
                    <button type="button" className="danger" onClick={() => setDeleting(f)}>
                      Delete<span className="visually-hidden"> {f.name}</span>
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      <section aria-labelledby="add-font">
        <h2 id="add-font">Add a personal font</h2>
        {fonts && !fonts.personalFonts ? (
          <p className="notice" data-testid="fonts-gate">
            Personal fonts need a plan that includes premium fonts. This account's plan: {fonts.plan}. On any
            plan you can make a font of your own handwriting, and write with it through test keys; an owner
            can request a plan that includes personal fonts there:{' '}
            <a href="/dashboard/handwriting">Your handwriting</a>.
          </p>
        ) : (
          <>
            <p className="hint">
              A TrueType or OpenType file (.ttf, .otf) of at most {fonts ? mb(fonts.maxBytes) : '…'}. The
              engine writes a sample line with it before it is added; a font it cannot write is refused,
              saying why.
            </p>
            <form onSubmit={send} className="inline" noValidate>
              <div className="field">
                <label htmlFor="font-name">Font name</label>
                <input id="font-name" name="name" maxLength={120} required />
              </div>
              <div className="field">
                <label htmlFor="font-file">Font file</label>
                <input id="font-file" name="file" type="file" accept=".ttf,.otf,font/ttf,font/otf" />
              </div>
              <button type="submit" className="primary">
                Add font
              </button>
            </form>
          </>
        )}
        <Outcome problem={problem} done={done} />
        {added ? (
          <figure className="font-sample">
            <img
              src={`data:image/png;base64,${added.sample.png}`}
              alt={`The sample line written in ${added.font.name}: ${added.sample.line}`}
              data-testid="font-sample"
            />
            <figcaption>
              Writes {added.font.scripts.join(', ') || 'no script the service recognises'};{' '}
              {added.font.glyphCount.toLocaleString('en-US')} glyphs. Its id: <code>{added.font.id}</code>{' '}
              <CopyButton text={added.font.id} label="Copy font id" />
            </figcaption>
          </figure>
        ) : null}
      </section>
      {deleting ? (
        <Confirm
          title={`Delete the font “${deleting.name}”?`}
          text="Its file is deleted; templates and jobs cannot write with it any more. A font that a template or an unfinished job uses is kept."
          action="Delete font"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const f = deleting;
            setDeleting(null);
            setAdded(null);
            void act(() => call('POST', `${base}/${f.id}/delete`), `Deleted the font “${f.name}”.`);
          }}
        />
      ) : null}
    </main>
  );
}

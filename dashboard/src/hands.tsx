// Your own handwriting as a personal font (docs/personal-hands.md): print the sample sheet, fill
// it in with a pen, upload a photo or a scan of each page; the service reads the pages and shows
// every drawing it made of each character, the warnings and a paragraph written with them. A
// drawing can be removed, moved in any direction, scaled, redone from a page written again, and a character
// spaced; nothing changes for templates until the hand is built.
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type CallError, call, upload, when } from './api.ts';
import { PlanForHands } from './plan.tsx';
import { CopyButton, Outcome, Table } from './ui.tsx';

interface HandView {
  id: string;
  name: string;
  sheet: string;
  pictures: { page: number; redo?: string[] }[];
  edits: Edits;
  fontId: string | null;
  builtAt: string | null;
  updatedAt: string;
}

interface HandList {
  data: HandView[];
  personalFonts: boolean;
  limits: { maxBytes: number; maxSide: number; maxPixels: number };
}

interface Edits {
  drawings?: Record<string, { raise?: number; shift?: number; scale?: number; removed?: boolean }>;
  spacing?: Record<string, number>;
}

interface Character {
  char: string;
  drawings: number[];
  advance: number;
}

type Preview =
  | {
      ok: true;
      pages: number[];
      characters: Character[];
      paths: Record<string, string>;
      warnings: { reason: string; drawings: string[]; message: string }[];
      measured: { xHeight: number; baselineOffset: number };
      sample: string;
    }
  | { ok: false; pages: number[]; message: string };

const STEP = 20;
/** Per cent a drawing grows or shrinks a step. */
const SCALE_STEP = 5;

export function HandsPage(props: { accountId: string; owner: boolean }) {
  const base = `/accounts/${props.accountId}/hands`;
  const [hands, setHands] = useState<HandList | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const [paper, setPaper] = useState('a4');
  const [set, setSet] = useState('basic');
  const load = useCallback(
    () => call<HandList>('GET', base).then(setHands, (e: CallError) => setProblem(e.message)),
    [base],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const start = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const file = data.get('picture');
    setProblem('');
    setDone('');
    if (!(file instanceof File) || file.size === 0)
      return setProblem('Choose a photo or scan of a filled page first.');
    setBusy(true);
    try {
      const hand = await upload<HandView>(
        `${base}?name=${encodeURIComponent(String(data.get('name') ?? ''))}`,
        file,
        file.type,
      );
      await load();
      setOpen(hand.id);
      setDone(`Read page ${hand.pictures[0]?.page} of ${hand.sheet}.`);
    } catch (err) {
      setProblem((err as CallError).message);
    } finally {
      setBusy(false);
    }
  };

  const sheet = `/dashboard/v1/accounts/${props.accountId}/hand-sheet?paper=${paper}&set=${set}`;
  return (
    <main>
      <h1>Your handwriting</h1>
      <p className="lead">
        Make a personal font of your own hand: print the sample sheet, write each character in its boxes with
        a dark pen, and upload a photo or a scan of each page. Several drawings of each letter become its
        alternates, so that no two words are written alike.
      </p>
      <PlanForHands accountId={props.accountId} owner={props.owner} onChange={load} />
      <section aria-labelledby="sheet">
        <h2 id="sheet">1. Print the sample sheet</h2>
        <div className="inline">
          <div className="field">
            <label htmlFor="sheet-paper">Paper</label>
            <select id="sheet-paper" value={paper} onChange={(e) => setPaper(e.currentTarget.value)}>
              <option value="a4">A4</option>
              <option value="letter">US Letter</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="sheet-set">Characters</label>
            <select id="sheet-set" value={set} onChange={(e) => setSet(e.currentTarget.value)}>
              <option value="basic">Basic Latin: letters, digits, punctuation</option>
              <option value="latin1">And accented letters (Latin-1)</option>
              <option value="ligatures">And letters written joined (th, ff, fi, fl, tt, ll, oo, ee)</option>
            </select>
          </div>
          <a className="button" href={sheet} download data-testid="sheet-pdf">
            Download the sheet (PDF)
          </a>
          <a href={`${sheet}&format=json`} download>
            Its layout (JSON)
          </a>
        </div>
      </section>
      <section aria-labelledby="start">
        <h2 id="start">2. Upload a filled page</h2>
        <p className="hint">
          A PNG or JPEG of the whole page, its four black corner squares in the picture. Taken at an angle or
          in uneven light is fine. Upload the other pages from the hand once it is open.
          {hands
            ? ` At most ${Math.round(hands.limits.maxBytes / 1024 / 1024)} MiB, ${hands.limits.maxSide} px a side and ${hands.limits.maxPixels / 1e6} megapixels: save a phone's photo smaller if it is over.`
            : ''}
        </p>
        <form onSubmit={start} className="inline" noValidate>
          <div className="field">
            <label htmlFor="hand-name">Font name</label>
            <input id="hand-name" name="name" maxLength={120} required />
          </div>
          <div className="field">
            <label htmlFor="hand-picture">Filled page</label>
            <input id="hand-picture" name="picture" type="file" accept="image/png,image/jpeg" />
          </div>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Reading the page…' : 'Start the hand'}
          </button>
        </form>
      </section>
      <Outcome problem={problem} done={done} />
      {hands?.data.length ? (
        <section aria-labelledby="hands">
          <h2 id="hands">Your hands</h2>
          <Table columns={['Name', 'Sheet', 'Pages', 'Font']} actions>
            {hands.data.map((h) => (
              <tr key={h.id}>
                <td>{h.name}</td>
                <td>{h.sheet}</td>
                <td>{[...new Set(h.pictures.filter((p) => !p.redo).map((p) => p.page))].join(', ')}</td>
                <td>{h.fontId ? <code>{h.fontId}</code> : 'not built yet'}</td>
                <td className="actions">
                  <button type="button" onClick={() => setOpen(h.id)}>
                    Open<span className="visually-hidden"> {h.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        </section>
      ) : null}
      {open ? <HandEditor key={open} base={`${base}/${open}`} onChange={load} /> : null}
    </main>
  );
}

function HandEditor(props: { base: string; onChange: () => void }) {
  const [hand, setHand] = useState<HandView | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState('');
  const [working, setWorking] = useState('Reading the pages…');
  const [redo, setRedo] = useState<string[]>([]);
  const refresh = useCallback(async () => {
    setWorking('Reading the pages…');
    try {
      const r = await call<{ hand: HandView; preview: Preview }>('GET', props.base);
      setHand(r.hand);
      setPreview(r.preview);
    } catch (err) {
      setProblem((err as CallError).message);
    } finally {
      setWorking('');
    }
  }, [props.base]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const act = async (what: () => Promise<unknown>, said: string) => {
    setProblem('');
    setDone('');
    setWorking('Working…');
    try {
      await what();
      await refresh();
      props.onChange();
      setDone(said);
    } catch (err) {
      setProblem((err as CallError).message);
      setWorking('');
    }
  };
  const edit = (change: (e: Required<Edits>) => void, said: string) => {
    const edits: Required<Edits> = {
      drawings: { ...(hand?.edits.drawings ?? {}) },
      spacing: { ...(hand?.edits.spacing ?? {}) },
    };
    change(edits);
    return act(() => call('POST', `${props.base}/edits`, { edits }), said);
  };
  /** A character spaced `by` units more on each side. */
  const space = (char: string, by: number, said: string) =>
    edit((e) => {
      e.spacing[char] = (e.spacing[char] ?? 0) + by;
    }, said);
  /** A drawing moved `by` units up or right (down or left when negative), or scaled `by` per cent. */
  const move = (key: string, what: 'raise' | 'shift' | 'scale', by: number, said: string) =>
    edit((e) => {
      const from = e.drawings[key]?.[what] ?? (what === 'scale' ? 100 : 0);
      e.drawings[key] = { ...e.drawings[key], [what]: from + by };
    }, said);
  /** A drawing left out of the font, or put back. */
  const remove = (key: string, removed: boolean, said: string) =>
    edit((e) => {
      e.drawings[key] = { ...e.drawings[key], removed };
    }, said);
  const addPicture = (e: FormEvent<HTMLFormElement>, redoing: string[]) => {
    e.preventDefault();
    const form = e.currentTarget;
    const file = new FormData(form).get('picture');
    if (!(file instanceof File) || file.size === 0)
      return setProblem('Choose a photo or scan of a filled page first.');
    const query = redoing.length ? `?redo=${encodeURIComponent(redoing.join(','))}` : '';
    return act(
      async () => {
        await upload(`${props.base}/pictures${query}`, file, file.type);
        form.reset();
        setRedo([]);
      },
      redoing.length ? `Redone ${redoing.join(' ')}.` : 'Added the page.',
    );
  };
  if (!hand) return <p aria-live="polite">{working || problem}</p>;
  const removed = (key: string) => hand.edits.drawings?.[key]?.removed === true;
  return (
    <section aria-labelledby="hand-title" className="hand">
      <h2 id="hand-title">{hand.name}</h2>
      <p>
        Sheet {hand.sheet}; pages read: {preview?.pages.join(', ') || '—'}.{' '}
        {hand.fontId ? (
          <>
            Built {hand.builtAt ? when(hand.builtAt) : ''} as <code>{hand.fontId}</code>{' '}
            <CopyButton text={hand.fontId} label="Copy font id" />. Templates write with what was built last.
          </>
        ) : (
          'Not built yet: templates cannot write with it until it is.'
        )}
      </p>
      <form onSubmit={(e) => addPicture(e, [])} className="inline" noValidate>
        <div className="field">
          <label htmlFor="hand-page">Another page (or a page again)</label>
          <input id="hand-page" name="picture" type="file" accept="image/png,image/jpeg" />
        </div>
        <button type="submit">Add the page</button>
      </form>
      <p aria-live="polite" className="hint">
        {working}
      </p>
      <Outcome problem={problem} done={done} />
      {preview && !preview.ok ? (
        <p className="notice" data-testid="hand-problem">
          {preview.message}
        </p>
      ) : null}
      {preview?.ok ? (
        <>
          <figure className="font-sample">
            <img
              src={`data:image/png;base64,${preview.sample}`}
              alt="A paragraph written in this hand"
              data-testid="hand-sample"
            />
            <figcaption>
              Your x-height: {preview.measured.xHeight} mm. {preview.characters.length} characters,{' '}
              {preview.characters.reduce((n, c) => n + c.drawings.length, 0)} drawings.
            </figcaption>
          </figure>
          {preview.warnings.length ? (
            <ul className="warnings" data-testid="hand-warnings">
              {preview.warnings.map((w) => (
                <li key={w.reason + w.message}>{w.message}</li>
              ))}
            </ul>
          ) : null}
          <button
            type="button"
            className="primary"
            onClick={() =>
              act(
                () => call('POST', `${props.base}/build`),
                'Built: templates that write with this font now use these drawings.',
              )
            }
          >
            Build the font
          </button>
          <div className="glyphs" data-testid="hand-glyphs">
            {preview.characters.map((c) => (
              <fieldset key={c.char} className="glyph" data-char={c.char}>
                <legend>
                  <span className="char">{c.char}</span>
                  <span className="spacing">
                    <button
                      type="button"
                      aria-label={`Tighten ${c.char}`}
                      onClick={() => space(c.char, -STEP / 2, `Tightened ${c.char}.`)}
                    >
                      −
                    </button>
                    <button
                      type="button"
                      aria-label={`Widen ${c.char}`}
                      onClick={() => space(c.char, STEP / 2, `Widened ${c.char}.`)}
                    >
                      +
                    </button>
                  </span>
                </legend>
                {c.drawings.map((v) => {
                  const key = `${c.char}/${v}`;
                  return (
                    <div key={key} className="drawing" data-drawing={key}>
                      <svg
                        viewBox={`-50 -950 ${c.advance + 100} 1300`}
                        role="img"
                        aria-label={`${c.char}, drawing ${v}`}
                      >
                        <line x1={-50} x2={c.advance + 50} y1={0} y2={0} className="baseline" />
                        <path d={preview.paths[key]} transform="scale(1 -1)" />
                      </svg>
                      <div className="drawing-actions">
                        {(
                          [
                            ['Raise', 'raise', STEP, '↑', 'Raised'],
                            ['Lower', 'raise', -STEP, '↓', 'Lowered'],
                            ['Move left', 'shift', -STEP, '←', 'Moved left'],
                            ['Move right', 'shift', STEP, '→', 'Moved right'],
                            ['Shrink', 'scale', -SCALE_STEP, '−', 'Shrunk'],
                            ['Enlarge', 'scale', SCALE_STEP, '+', 'Enlarged'],
                          ] as const
                        ).map(([label, what, by, sign, said]) => (
                          <button
                            key={label}
                            type="button"
                            aria-label={`${label} ${key}`}
                            onClick={() => move(key, what, by, `${said} ${key}.`)}
                          >
                            {sign}
                          </button>
                        ))}
                        <button
                          type="button"
                          aria-label={`Remove ${key}`}
                          onClick={() => remove(key, true, `Removed ${key}.`)}
                        >
                          ✕
                        </button>
                        <label>
                          <input
                            type="checkbox"
                            checked={redo.includes(key)}
                            onChange={(e) => {
                              const on = e.currentTarget.checked;
                              setRedo((r) => (on ? [...r, key] : r.filter((k) => k !== key)));
                            }}
                          />
                          <span className="visually-hidden">Redo {key}</span>
                          redo
                        </label>
                      </div>
                    </div>
                  );
                })}
              </fieldset>
            ))}
          </div>
          {Object.entries(hand.edits.drawings ?? {}).some(([k]) => removed(k)) ? (
            <p>
              Removed:{' '}
              {Object.keys(hand.edits.drawings ?? {})
                .filter(removed)
                .map((k) => (
                  <button key={k} type="button" onClick={() => remove(k, false, `Restored ${k}.`)}>
                    Restore {k}
                  </button>
                ))}
            </p>
          ) : null}
          <form onSubmit={(e) => addPicture(e, redo)} className="inline" noValidate>
            <div className="field">
              <label htmlFor="hand-redo">
                Page written again for the drawings ticked “redo” ({redo.join(' ') || 'none yet'})
              </label>
              <input id="hand-redo" name="picture" type="file" accept="image/png,image/jpeg" />
            </div>
            <button type="submit" disabled={!redo.length}>
              Redo {redo.length || ''} drawings
            </button>
          </form>
        </>
      ) : null}
      <p>
        <button
          type="button"
          className="danger"
          onClick={() =>
            act(
              () => call('POST', `${props.base}/delete`),
              'Deleted the hand; its font, if built, stays among the fonts.',
            )
          }
        >
          Delete the hand
        </button>
      </p>
    </section>
  );
}

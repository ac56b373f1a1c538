// The template builder: a simple-text, structured or legacy v1 template edited through forms
// drawn from the model's schemas, with the first page drawn by the engine beside it on every
// pause in editing. Saving stores a new template or the next revision of the one opened; the
// server's validation (the same as an import's) names any field it refuses, and that field is
// marked in the form.
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { type CallError, call, type TemplateSummary } from './api.ts';
import {
  type Font,
  FontSelect,
  type FormContext,
  type Image,
  idOf,
  labelOf,
  materialize,
  Problem,
  type Schema,
  SchemaField,
  setIn,
} from './schema-form.tsx';
import { Outcome } from './ui.tsx';

export interface Schemas {
  style: Schema;
  block: Schema;
  settings: Schema;
}

type Model = Record<string, unknown>;
type Path = (string | number)[];
export type Kind = 'simple' | 'structured' | 'legacy';

/** A new template of a kind: every default of the schema, the first usable font, a few blocks. */
export function blankModel(kind: Kind, schemas: Schemas, fonts: Font[]): Model {
  const font = (fonts.find((f) => f.usable) ?? fonts[0])?.id;
  if (kind === 'legacy')
    return { version: 1, name: 'New document', settings: materialize(schemas.settings), fontIds: [font] };
  const style = { ...(materialize(schemas.style) as Model), fontId: font };
  if (kind === 'simple') return { version: 2, name: 'New letter', mode: 'simple', style };
  return {
    version: 2,
    name: 'New form',
    mode: 'structured',
    style,
    blocks: [
      { type: 'heading', key: 'title', level: 1 },
      { type: 'text', key: 'body' },
    ],
  };
}

const variants = (s: Schema) => s.oneOf ?? s.anyOf ?? [];
const typeOf = (s: Schema) => s.properties?.type?.const as string;

/** A new block of a type, with what the server requires of it filled in. */
function newBlock(schema: Schema, type: string, used: Set<string>): Model {
  const variant = variants(schema).find((v) => typeOf(v) === type)!;
  const block = materialize(variant) as Model;
  block.type = type;
  if (variant.properties?.key) {
    let n = 1;
    while (used.has(`${type}${n}`)) n++;
    block.key = `${type}${n}`;
  }
  if (type === 'table')
    block.columns = [
      { key: 'item', title: 'Item' },
      { key: 'amount', title: 'Amount' },
    ];
  if (type === 'columns')
    block.columns = [
      { blocks: [{ type: 'text', key: `left${used.size}` }] },
      { blocks: [{ type: 'text', key: `right${used.size}` }] },
    ];
  if (type === 'spacer') block.height = 12;
  return block;
}

function keysOf(blocks: Model[], into = new Set<string>()): Set<string> {
  for (const b of blocks) {
    if (typeof b.key === 'string') into.add(b.key);
    if (b.type === 'columns') for (const c of b.columns as { blocks: Model[] }[]) keysOf(c.blocks, into);
  }
  return into;
}

/** A button that removes item `i` of the list at `path`; `more` is said to screen readers only. */
function RemoveItem(props: {
  list: unknown[];
  i: number;
  path: Path;
  onChange: (path: Path, v: unknown) => void;
  label: string;
  more?: string;
  disabled?: boolean;
}) {
  const { list, i, path, onChange } = props;
  return (
    <button
      type="button"
      disabled={props.disabled}
      onClick={() =>
        onChange(
          path,
          list.filter((_, j) => j !== i),
        )
      }
    >
      {props.label}
      {props.more ? <span className="visually-hidden">{props.more}</span> : null}
    </button>
  );
}

/** Fields of a block drawn by its schema; these are drawn by hand (or are the type itself). */
const BY_HAND = ['type', 'columns', 'rows', 'blocks'];
/** A static block's content; a dynamic block takes it from `data` instead. */
const CONTENT = ['text', 'items', 'assetId'];

function BlocksEditor(props: {
  blocks: Model[];
  schema: Schema;
  path: Path;
  ctx: FormContext;
  onChange: (path: Path, v: unknown) => void;
  allKeys: Set<string>;
}) {
  const { blocks, schema, path, ctx, onChange } = props;
  const types = variants(schema).map(typeOf);
  const [adding, setAdding] = useState(types[0]!);
  const move = (i: number, by: number) => {
    const next = [...blocks];
    const [b] = next.splice(i, 1);
    next.splice(i + by, 0, b!);
    onChange(path, next);
  };
  const addId = idOf([...path, 'add']);
  return (
    <div className="blocks">
      <ol>
        {blocks.map((b, i) => {
          const variant = variants(schema).find((v) => typeOf(v) === b.type);
          const here = [...path, i];
          const title = `${labelOf(String(b.type))}${typeof b.key === 'string' && !b.static ? ` “${b.key}”` : ''}`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no id of their own; order is their identity
            <li key={i} className="block">
              <fieldset className="group">
                <legend>
                  {i + 1}. {title}
                </legend>
                <div className="block-actions">
                  <button type="button" disabled={i === 0} onClick={() => move(i, -1)}>
                    Up<span className="visually-hidden"> ({title})</span>
                  </button>
                  <button type="button" disabled={i === blocks.length - 1} onClick={() => move(i, 1)}>
                    Down<span className="visually-hidden"> ({title})</span>
                  </button>
                  <RemoveItem
                    list={blocks}
                    i={i}
                    path={path}
                    onChange={onChange}
                    disabled={blocks.length === 1 && path.length === 1}
                    label="Remove"
                    more={` (${title})`}
                  />
                </div>
                {variant?.properties
                  ? Object.entries(variant.properties)
                      .filter(([k]) => !BY_HAND.includes(k))
                      .filter(([k]) => (b.static === true ? k !== 'key' : !CONTENT.includes(k)))
                      .map(([k, p]) => (
                        <SchemaField
                          key={k}
                          schema={p}
                          value={b[k]}
                          path={[...here, k]}
                          label={k === 'key' ? 'Field name in data' : labelOf(k)}
                          ctx={ctx}
                          optional={!variant.required?.includes(k)}
                          long={k === 'text' && b.type === 'text'}
                          onChange={onChange}
                        />
                      ))
                  : null}
                {b.type === 'table' && variant ? (
                  <TableEditor block={b} variant={variant} path={here} ctx={ctx} onChange={onChange} />
                ) : null}
                {b.type === 'columns' && variant ? (
                  <ColumnsEditor
                    block={b}
                    variant={variant}
                    path={here}
                    ctx={ctx}
                    onChange={onChange}
                    allKeys={props.allKeys}
                  />
                ) : null}
                <Problem path={here} ctx={ctx} />
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="inline">
        <div className="field">
          <label htmlFor={addId}>New block</label>
          <select id={addId} value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
            {types.map((t) => (
              <option key={t} value={t}>
                {labelOf(t)}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          onClick={() => onChange(path, [...blocks, newBlock(schema, adding, props.allKeys)])}
        >
          Add block
        </button>
      </div>
    </div>
  );
}

/** A table's columns (key, title, width) and, for a static table, its rows under those keys. */
function TableEditor(props: {
  block: Model;
  variant: Schema;
  path: Path;
  ctx: FormContext;
  onChange: (path: Path, v: unknown) => void;
}) {
  const { block, variant, path, ctx, onChange } = props;
  const columns = (block.columns as Model[]) ?? [];
  const column = variant.properties!.columns!.items!;
  const rows = (block.rows as Record<string, string>[] | undefined) ?? [];
  return (
    <>
      <fieldset className="group">
        <legend>Columns</legend>
        {columns.map((c, ci) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: columns are edited in place; their key can change
          <div key={ci} className="inline">
            {Object.entries(column.properties!).map(([k, p]) => (
              <SchemaField
                key={k}
                schema={p}
                value={c[k]}
                path={[...path, 'columns', ci, k]}
                label={`Column ${ci + 1} ${k === 'key' ? 'key (in data)' : k}`}
                ctx={ctx}
                optional={!column.required?.includes(k)}
                onChange={onChange}
              />
            ))}
            <RemoveItem
              list={columns}
              i={ci}
              path={[...path, 'columns']}
              onChange={onChange}
              disabled={columns.length === 1}
              label={`Remove column ${ci + 1}`}
            />
          </div>
        ))}
        <button
          type="button"
          onClick={() =>
            onChange([...path, 'columns'], [...columns, { key: `col${columns.length + 1}`, title: '' }])
          }
        >
          Add column
        </button>
        <Problem path={[...path, 'columns']} ctx={ctx} />
      </fieldset>
      {block.static ? (
        <fieldset className="group">
          <legend>Rows</legend>
          {rows.map((r, ri) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; order is their identity
            <div key={ri} className="inline">
              {columns.map((c) => {
                const id = idOf([...path, 'rows', ri, String(c.key)]);
                return (
                  <div className="field" key={String(c.key)}>
                    <label htmlFor={id}>
                      Row {ri + 1} {String(c.title || c.key)}
                    </label>
                    <input
                      id={id}
                      value={r[String(c.key)] ?? ''}
                      onChange={(e) => onChange([...path, 'rows', ri, String(c.key)], e.currentTarget.value)}
                    />
                  </div>
                );
              })}
              <RemoveItem
                list={rows}
                i={ri}
                path={[...path, 'rows']}
                onChange={onChange}
                label={`Remove row ${ri + 1}`}
              />
            </div>
          ))}
          <button type="button" onClick={() => onChange([...path, 'rows'], [...rows, {}])}>
            Add row
          </button>
          <Problem path={[...path, 'rows']} ctx={ctx} />
        </fieldset>
      ) : null}
    </>
  );
}

/** Side-by-side columns, each with its width and its own blocks (which do not nest further). */
function ColumnsEditor(props: {
  block: Model;
  variant: Schema;
  path: Path;
  ctx: FormContext;
  onChange: (path: Path, v: unknown) => void;
  allKeys: Set<string>;
}) {
  const { block, variant, path, ctx, onChange } = props;
  const column = variant.properties!.columns!.items!;
  const columns = (block.columns as Model[]) ?? [];
  return (
    <>
      {columns.map((c, ci) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: columns have no id; order is their identity
        <fieldset key={ci} className="group">
          <legend>Column {ci + 1}</legend>
          <SchemaField
            schema={column.properties!.width!}
            value={c.width}
            path={[...path, 'columns', ci, 'width']}
            label="Width"
            ctx={ctx}
            optional
            onChange={onChange}
          />
          <BlocksEditor
            blocks={(c.blocks as Model[]) ?? []}
            schema={column.properties!.blocks!.items!}
            path={[...path, 'columns', ci, 'blocks']}
            ctx={ctx}
            onChange={onChange}
            allKeys={props.allKeys}
          />
          <RemoveItem
            list={columns}
            i={ci}
            path={[...path, 'columns']}
            onChange={onChange}
            disabled={columns.length <= 2}
            label={`Remove column ${ci + 1}`}
          />
        </fieldset>
      ))}
      <button
        type="button"
        disabled={columns.length >= 6}
        onClick={() => onChange([...path, 'columns'], [...columns, { blocks: [] }])}
      >
        Add column
      </button>
    </>
  );
}

/** The style's fields in parts of the form that fold away; the text's part starts open. */
const SECTIONS = [
  {
    title: 'Text',
    open: true,
    keys: [
      'fontSize',
      'color',
      'lineHeight',
      'letterSpacing',
      'wordSpacing',
      'firstLineIndent',
      'align',
      'columnGap',
    ],
  },
  { title: 'Page', open: false, keys: ['pageSize', 'orientation', 'margins'] },
  { title: 'Paper and background', open: false, keys: ['paper', 'background'] },
  { title: 'Handwriting', open: false, keys: ['modifiers'] },
] as const;

/** A part of the form that folds away; it opens by itself when the server refuses a field in it. */
function Section(props: {
  title: string;
  open: boolean;
  paths: readonly string[];
  problem: FormContext['problem'];
  children: ReactNode;
}) {
  const refused = props.paths.some((p) => props.problem?.field.startsWith(p));
  return (
    <details className="section" open={props.open || refused || undefined}>
      <summary>{props.title}</summary>
      {props.children}
    </details>
  );
}

interface DraftAnswer {
  png: string;
  sample: Record<string, unknown>;
}

/** How long editing must pause before the preview is drawn again. */
const DEBOUNCE_MS = 250;

export function Builder(props: {
  accountId: string;
  mode: 'live' | 'test';
  schemas: Schemas;
  fonts: Font[];
  images: Image[];
  start: { id?: string; model: Model };
  onSaved: (t: TemplateSummary) => void;
  onClose: () => void;
}) {
  const { accountId, mode, schemas } = props;
  const [model, setModel] = useState<Model>(props.start.model);
  const [id, setId] = useState(props.start.id);
  const [problem, setProblem] = useState<{ field: string; message: string } | undefined>();
  const [image, setImage] = useState('');
  const [drawing, setDrawing] = useState(false);
  const [sample, setSample] = useState('');
  const [ownSample, setOwnSample] = useState(false);
  const [saved, setSaved] = useState('');
  const [saveProblem, setSaveProblem] = useState('');
  const base = `/accounts/${accountId}`;
  const top = useRef<HTMLElement>(null);
  useEffect(() => {
    // A block body: newer browsers answer scrollIntoView with a promise, which is no cleanup.
    top.current?.scrollIntoView({ block: 'start' });
  }, []);
  const kind: Kind = model.version === 1 ? 'legacy' : (model.mode as Kind);

  const change = useCallback((path: Path, v: unknown) => setModel((m) => setIn(m, path, v) as Model), []);

  // The preview: one draft at a time; a change made while one is drawn is drawn after it.
  const inFlight = useRef(false);
  const pending = useRef<(() => void) | null>(null);
  const draw = useCallback(
    async (m: Model, own: string | null) => {
      if (inFlight.current) {
        pending.current = () => void draw(m, own);
        return;
      }
      inFlight.current = true;
      setDrawing(true);
      try {
        let sent: unknown;
        if (own !== null) {
          try {
            sent =
              kind === 'simple'
                ? { text: own }
                : { [kind === 'legacy' ? 'content' : 'data']: JSON.parse(own) };
          } catch (err) {
            throw Object.assign(new Error(`The sample is not valid JSON: ${(err as Error).message}`), {
              field: 'sample',
            });
          }
        }
        const answer = await call<DraftAnswer>('POST', `${base}/drafts`, {
          mode,
          template: m,
          ...(sent === undefined ? {} : { sample: sent }),
        });
        setImage(`data:image/png;base64,${answer.png}`);
        setProblem(undefined);
        if (own === null) {
          const s = answer.sample;
          setSample('text' in s ? String(s.text) : JSON.stringify(s.data ?? s.content, null, 2));
        }
      } catch (err) {
        const e = err as CallError;
        setProblem({ field: e.field ?? '', message: e.message });
      } finally {
        inFlight.current = false;
        setDrawing(false);
        const next = pending.current;
        pending.current = null;
        next?.();
      }
    },
    [base, mode, kind],
  );
  useEffect(() => {
    const timer = setTimeout(() => void draw(model, ownSample ? sample : null), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [model, sample, ownSample, draw]);

  const save = async () => {
    setSaved('');
    setSaveProblem('');
    try {
      const t = id
        ? await call<TemplateSummary>('POST', `${base}/templates/${id}`, { mode, template: model })
        : await call<TemplateSummary>('POST', `${base}/templates`, { mode, template: model });
      setId(t.id);
      setSaved(
        id ? `Saved “${t.name}” as revision ${t.revision}.` : `Saved “${t.name}” as ${t.id}, revision 1.`,
      );
      props.onSaved(t);
    } catch (err) {
      const e = err as CallError;
      setSaveProblem(e.message);
      if (e.field) setProblem({ field: e.field, message: e.message });
    }
  };

  const ctx: FormContext = { fonts: props.fonts, images: props.images, problem };
  const style = (model.version === 1 ? model.settings : model.style) as Model;
  const styleSchema = model.version === 1 ? schemas.settings : schemas.style;
  const stylePath = model.version === 1 ? 'settings' : 'style';
  const fontIds = (model.fontIds as string[] | undefined) ?? [];
  const blocks = (model.blocks as Model[] | undefined) ?? [];
  const nameId = idOf(['name']);
  const sampleId = 'builder-sample';
  return (
    <section className="builder" aria-labelledby="builder-title" ref={top}>
      <h2 id="builder-title">
        {id ? 'Edit' : 'New'} {kind === 'legacy' ? 'legacy v1' : kind} template
      </h2>
      <div className="builder-grid">
        <form className="builder-form" noValidate onSubmit={(e) => e.preventDefault()}>
          <div className="field">
            <label htmlFor={nameId}>Name</label>
            <input
              id={nameId}
              value={String(model.name ?? '')}
              onChange={(e) => change(['name'], e.currentTarget.value)}
            />
            <Problem path={['name']} ctx={ctx} />
          </div>
          {model.version === 1 ? (
            <fieldset className="group">
              <legend>Fonts (the first writes the text, the second the headings)</legend>
              {[0, 1, 2, 3, 4].slice(0, Math.min(5, fontIds.length + 1)).map((i) => (
                <div className="field" key={i}>
                  <label htmlFor={idOf(['fontIds', i])}>Font {i + 1}</label>
                  <FontSelect
                    id={idOf(['fontIds', i])}
                    value={fontIds[i]}
                    ctx={ctx}
                    path={['fontIds', i]}
                    allowNone={i > 0}
                    onChange={(_, v) =>
                      change(
                        ['fontIds'],
                        v ? Object.assign([...fontIds], { [i]: v }) : fontIds.filter((_f, j) => j !== i),
                      )
                    }
                  />
                </div>
              ))}
              <Problem path={['fontIds']} ctx={ctx} />
            </fieldset>
          ) : (
            <div className="field">
              <label htmlFor={idOf(['style', 'fontId'])}>Font</label>
              <FontSelect
                id={idOf(['style', 'fontId'])}
                value={style.fontId as string}
                ctx={ctx}
                path={['style', 'fontId']}
                onChange={change}
              />
              <Problem path={['style', 'fontId']} ctx={ctx} />
            </div>
          )}
          {SECTIONS.map((section) => {
            // A field of the schema no part names is drawn in the first part, never left out.
            const named = new Set<string>(['fontId', ...SECTIONS.flatMap((x) => x.keys)]);
            const rest = Object.keys(styleSchema.properties ?? {}).filter((k) => !named.has(k));
            const all: readonly string[] = section.open ? [...section.keys, ...rest] : section.keys;
            const keys = all.filter((k) => k !== 'modifiers' && styleSchema.properties?.[k]);
            const modifiers = all.includes('modifiers') ? styleSchema.properties?.modifiers : undefined;
            const at = [stylePath];
            return (
              <Section
                key={section.title}
                title={section.title}
                open={section.open}
                paths={section.keys.map((k) => `${stylePath}.${k}`)}
                problem={problem}
              >
                {keys.map((k) => (
                  <SchemaField
                    key={k}
                    schema={styleSchema.properties![k]!}
                    value={style[k]}
                    path={[...at, k]}
                    label={labelOf(k)}
                    ctx={ctx}
                    optional={!styleSchema.required?.includes(k)}
                    onChange={change}
                  />
                ))}
                {modifiers?.properties
                  ? Object.entries(modifiers.properties).map(([k, p]) => (
                      <SchemaField
                        key={k}
                        schema={p}
                        value={(style.modifiers as Model | undefined)?.[k]}
                        path={[...at, 'modifiers', k]}
                        label={labelOf(k)}
                        ctx={ctx}
                        onChange={change}
                      />
                    ))
                  : null}
              </Section>
            );
          })}
          {kind === 'structured' ? (
            <fieldset className="group">
              <legend>Blocks</legend>
              <BlocksEditor
                blocks={blocks}
                schema={schemas.block}
                path={['blocks']}
                ctx={ctx}
                onChange={change}
                allKeys={keysOf(blocks)}
              />
            </fieldset>
          ) : null}
        </form>
        <aside className="builder-preview" aria-labelledby="preview-title">
          <h3 id="preview-title">
            Preview <span className="hint">(first page{drawing ? ', drawing…' : ''})</span>
          </h3>
          {problem ? (
            <p className="field-error" role="alert" data-testid="builder-problem">
              {problem.message}
            </p>
          ) : null}
          {image ? (
            <img
              src={image}
              alt="The template's first page, as the engine draws it"
              data-testid="builder-preview"
            />
          ) : (
            <p>Drawing the first page…</p>
          )}
          <div className="field">
            <div className="check">
              <input
                id="builder-own-sample"
                type="checkbox"
                checked={ownSample}
                onChange={(e) => setOwnSample(e.currentTarget.checked)}
              />
              <label htmlFor="builder-own-sample">Write my own sample</label>
            </div>
            <label htmlFor={sampleId}>
              Sample {kind === 'simple' ? 'text' : kind === 'structured' ? 'data (JSON)' : 'content (JSON)'}
            </label>
            <textarea
              id={sampleId}
              rows={8}
              readOnly={!ownSample}
              value={sample}
              onChange={(e) => setSample(e.currentTarget.value)}
            />
          </div>
          <div className="inline">
            <button type="button" className="primary" onClick={() => void save()}>
              {id ? 'Save as the next revision' : 'Save template'}
            </button>
            <button type="button" onClick={props.onClose}>
              Close the builder
            </button>
          </div>
          <Outcome problem={saveProblem} done={saved} />
        </aside>
      </div>
    </section>
  );
}

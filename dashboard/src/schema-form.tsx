// Form fields drawn from the template model's JSON Schemas, as the server validates it: every
// range, unit, default and choice comes from there, so the form never holds a rule of its own.
// Fonts and images are chosen from the account's; a field the server refused is marked.
import type { ReactNode } from 'react';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: string[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  'x-unit'?: string;
  pattern?: string;
  additionalProperties?: unknown;
}

export interface Font {
  id: string;
  name: string;
  personal: boolean;
  premium: boolean;
  usable: boolean;
  scripts: string[];
}

export interface Image {
  id: string;
  width: number;
  height: number;
}

/** What fields need beyond their schema: choices from the account, and the refused field. */
export interface FormContext {
  fonts: Font[];
  images: Image[];
  /** The field the server refused (`style.fontSize`, `blocks[2].key`) and why. */
  problem?: { field: string; message: string } | undefined;
}

type Path = (string | number)[];

export const pathOf = (path: Path) =>
  path.reduce<string>(
    (out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : String(p)),
    '',
  );

/** `firstLineIndent` → "First line indent". */
export function labelOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const COLOR = /\[0-9a-fA-F\]\{3\}/;
const isColor = (s: Schema) => s.type === 'string' && !!s.pattern && COLOR.test(s.pattern);
const isFont = (s: Schema) => s.type === 'string' && !!s.pattern?.startsWith('^font_');
const isAsset = (s: Schema) => s.type === 'string' && !!s.pattern?.startsWith('^asset_');

/** `#abc` → `#aabbcc`, as a colour input takes it. */
const longColor = (c: string) =>
  /^#[0-9a-f]{3}$/i.test(c) ? `#${[...c.slice(1)].map((x) => x + x).join('')}` : c;

/** A whole value of a schema: its default, else (objects) each required field's. */
export function materialize(s: Schema): unknown {
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.type === 'object' && s.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties)) {
      if (!s.required?.includes(k)) continue;
      const v = materialize(p);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  return undefined;
}

/** The value with `path` set to `v` (undefined removes it); objects and arrays are copied on the way. */
export function setIn(value: unknown, path: Path, v: unknown): unknown {
  if (path.length === 0) return v;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const arr = Array.isArray(value) ? [...value] : [];
    arr[head] = setIn(arr[head], rest, v);
    return arr;
  }
  const obj = { ...((value as Record<string, unknown>) ?? {}) };
  const next = setIn(obj[head!], rest, v);
  if (next === undefined) delete obj[head!];
  else obj[head!] = next;
  return obj;
}

function rangeText(s: Schema): string {
  if (s.minimum === undefined || s.maximum === undefined) return '';
  const unit = s['x-unit'] && s['x-unit'] !== 'units' ? ` ${s['x-unit']}` : '';
  return `${s.minimum}–${s.maximum}${unit}`;
}

/** A number as typed: a number when it reads as one, else the text (the server names it). */
const typed = (raw: string): unknown =>
  raw.trim() === '' ? undefined : Number.isFinite(Number(raw)) ? Number(raw) : raw;

export function Problem(props: { path: Path; ctx: FormContext }) {
  const p = props.ctx.problem;
  if (!p || p.field !== pathOf(props.path)) return null;
  return (
    <p className="field-error" id={`${idOf(props.path)}-error`} role="alert">
      {p.message}
    </p>
  );
}

/** Fields the model still reads from old templates but no longer offers (`letters.warp`, now `shapes`). */
const SUPERSEDED = ['warp'];

export const idOf = (path: Path) => `f-${pathOf(path).replace(/[^A-Za-z0-9_-]/g, '-')}`;

function invalid(path: Path, ctx: FormContext) {
  return ctx.problem?.field === pathOf(path)
    ? { 'aria-invalid': true as const, 'aria-describedby': `${idOf(path)}-error` }
    : {};
}

/**
 * One field of the model: a fieldset for an object, an input for a number, colour, choice or
 * text.
 */
export function SchemaField(props: {
  schema: Schema;
  value: unknown;
  path: Path;
  label: string;
  ctx: FormContext;
  optional?: boolean;
  onChange: (path: Path, v: unknown) => void;
  /** Long text: a text area. */
  long?: boolean;
}): ReactNode {
  const { schema: s, value, path, ctx, onChange } = props;
  let label = props.label;
  const id = idOf(path);
  const shown = value === undefined ? s.default : value;

  if (s.anyOf && path.at(-1) === 'pageSize') return <PageSizeField {...props} />;
  if (s.type === 'object' && s.properties) {
    const entries = Object.entries(s.properties).filter(([k]) => !SUPERSEDED.includes(k));
    return (
      <fieldset className="group">
        <legend>{label}</legend>
        {entries.map(([k, p]) => (
          <SchemaField
            key={k}
            schema={p}
            value={(shown as Record<string, unknown> | undefined)?.[k]}
            path={[...path, k]}
            label={labelOf(k)}
            ctx={ctx}
            optional={!s.required?.includes(k)}
            onChange={onChange}
          />
        ))}
        <Problem path={path} ctx={ctx} />
      </fieldset>
    );
  }
  if (s.type === 'boolean')
    return (
      <div className="field check">
        <input
          id={id}
          type="checkbox"
          checked={shown === true}
          onChange={(e) => onChange(path, e.currentTarget.checked)}
          {...invalid(path, ctx)}
        />
        <label htmlFor={id}>{label}</label>
        <Problem path={path} ctx={ctx} />
      </div>
    );
  let input: ReactNode;
  if (s.type === 'number' || s.type === 'integer') {
    const range = rangeText(s);
    input = (
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={s.minimum}
        max={s.maximum}
        step={s.type === 'integer' ? 1 : (s.maximum ?? 10) - (s.minimum ?? 0) <= 2 ? 0.01 : 0.1}
        value={shown === undefined ? '' : String(shown)}
        placeholder={props.optional ? 'as the template' : ''}
        onChange={(e) => onChange(path, typed(e.currentTarget.value))}
        {...invalid(path, ctx)}
      />
    );
    return (
      <div className="field">
        <label htmlFor={id}>
          {label} {range ? <span className="range">({range})</span> : null}
        </label>
        {input}
        <Problem path={path} ctx={ctx} />
      </div>
    );
  }
  if (s.enum) {
    input = (
      <select
        id={id}
        value={shown === undefined ? '' : String(shown)}
        onChange={(e) => onChange(path, e.currentTarget.value || undefined)}
        {...invalid(path, ctx)}
      >
        {props.optional ? <option value="">as the template</option> : null}
        {s.enum.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    );
  } else if (isColor(s)) {
    const set = typeof shown === 'string';
    input = (
      <span className="color">
        {props.optional ? (
          <input
            type="checkbox"
            aria-label={`Set ${label.toLowerCase()}`}
            checked={set}
            onChange={(e) => onChange(path, e.currentTarget.checked ? '#000000' : undefined)}
          />
        ) : null}
        <input
          id={id}
          type="color"
          disabled={!set}
          value={set ? longColor(shown as string) : '#000000'}
          onChange={(e) => onChange(path, e.currentTarget.value)}
          {...invalid(path, ctx)}
        />
        <code>{set ? (shown as string) : 'none'}</code>
      </span>
    );
  } else if (isFont(s)) {
    input = (
      <FontSelect id={id} value={shown as string | undefined} ctx={ctx} path={path} onChange={onChange} />
    );
  } else if (isAsset(s)) {
    input = (
      <select
        id={id}
        value={(shown as string | undefined) ?? ''}
        onChange={(e) => onChange(path, e.currentTarget.value || undefined)}
        {...invalid(path, ctx)}
      >
        <option value="">{props.optional ? 'none' : 'choose an image'}</option>
        {ctx.images.map((a) => (
          <option key={a.id} value={a.id}>
            {a.id} ({a.width} x {a.height} px)
          </option>
        ))}
      </select>
    );
  } else if (s.type === 'array' && s.items?.type === 'string') {
    input = (
      <textarea
        id={id}
        rows={4}
        value={Array.isArray(shown) ? shown.join('\n') : ''}
        onChange={(e) =>
          onChange(path, e.currentTarget.value === '' ? undefined : e.currentTarget.value.split('\n'))
        }
        {...invalid(path, ctx)}
      />
    );
    label = `${label} (one a line)`;
  } else if (props.long) {
    input = (
      <textarea
        id={id}
        rows={4}
        value={(shown as string | undefined) ?? ''}
        onChange={(e) =>
          onChange(path, e.currentTarget.value === '' && props.optional ? undefined : e.currentTarget.value)
        }
        {...invalid(path, ctx)}
      />
    );
  } else {
    input = (
      <input
        id={id}
        type="text"
        value={(shown as string | undefined) ?? ''}
        onChange={(e) =>
          onChange(path, e.currentTarget.value === '' && props.optional ? undefined : e.currentTarget.value)
        }
        {...invalid(path, ctx)}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {input}
      <Problem path={path} ctx={ctx} />
    </div>
  );
}

/** Fonts with the scripts they cover; a premium font the plan does not include says so. */
export function FontSelect(props: {
  id: string;
  value: string | undefined;
  ctx: FormContext;
  path: Path;
  onChange: (path: Path, v: unknown) => void;
  allowNone?: boolean;
}) {
  const { ctx, path } = props;
  const chosen = ctx.fonts.find((f) => f.id === props.value);
  return (
    <>
      <select
        id={props.id}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(path, e.currentTarget.value || undefined)}
        {...invalid(path, ctx)}
      >
        {props.allowNone || !props.value ? (
          <option value="">{props.allowNone ? 'none' : 'choose a font'}</option>
        ) : null}
        {ctx.fonts.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
            {f.premium ? ' ★ premium' : ''}
            {f.personal ? ' (personal)' : ''}
            {f.usable ? '' : ' — not in your plan'}
          </option>
        ))}
      </select>
      {chosen ? (
        <span className="hint" data-testid="font-coverage">
          Writes {chosen.scripts.join(', ') || 'no script'}
          {chosen.premium ? '; a premium font' : ''}
          {chosen.usable ? '' : ', which your plan does not include'}
        </span>
      ) : null}
    </>
  );
}

/** A standard size, or a custom one in mm or px (up to A3 either way round, as the server checks). */
function PageSizeField(props: Parameters<typeof SchemaField>[0]) {
  const { schema, value, path, ctx, onChange } = props;
  const standard = schema.anyOf?.find((a) => a.enum)?.enum ?? [];
  const custom = schema.anyOf?.find((a) => a.type === 'object');
  const shown = value ?? schema.default;
  const isCustom = typeof shown === 'object' && shown !== null;
  const id = idOf(path);
  return (
    <fieldset className="group">
      <legend>Page size</legend>
      <div className="field">
        <label htmlFor={id}>Size</label>
        <select
          id={id}
          value={isCustom ? 'custom' : String(shown)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            onChange(path, v === 'custom' ? { name: 'Custom', width: 148, height: 210, unit: 'mm' } : v);
          }}
          {...invalid(path, ctx)}
        >
          {standard.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
          <option value="custom">custom (mm or px, up to A3)</option>
        </select>
      </div>
      {isCustom && custom?.properties
        ? Object.entries(custom.properties).map(([k, p]) => (
            <SchemaField
              key={k}
              schema={p}
              value={(shown as Record<string, unknown>)[k]}
              path={[...path, k]}
              label={labelOf(k)}
              ctx={ctx}
              onChange={onChange}
            />
          ))
        : null}
      <Problem path={path} ctx={ctx} />
    </fieldset>
  );
}

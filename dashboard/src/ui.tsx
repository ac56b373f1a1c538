// Small pieces every page uses: labelled fields whose errors are read out with them, a form
// that shows the API's refusal next to the field it names, and a copy button.
import { type FormEvent, type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { CallError } from './api.ts';

export function Field(props: {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  error?: string | undefined;
  hint?: string;
  defaultValue?: string;
  required?: boolean;
  minLength?: number;
}) {
  const id = useId();
  // The API names its own field ("accountName must be 1-120 characters"); the form says its label.
  const error =
    props.error?.startsWith(`${props.name} `) === true
      ? `${props.label}${props.error.slice(props.name.length)}`
      : props.error;
  const described = [props.error ? `${id}-error` : '', props.hint ? `${id}-hint` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        required={props.required}
        minLength={props.minLength}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {props.hint ? (
        <p className="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A form's state: busy while it is sent; the refusal, by the field it names (or for the form). */
export function useForm<T>(send: (values: Record<string, string>) => Promise<T>, done: (result: T) => void) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = Object.fromEntries(
      [...new FormData(form).entries()].map(([k, v]) => [k, String(v)]),
    ) as Record<string, string>;
    setBusy(true);
    setErrors({});
    try {
      const result = await send(values);
      form.reset();
      done(result);
    } catch (err) {
      const e = err instanceof CallError ? err : new CallError(0, 'ERROR', String(err));
      setErrors({ [e.field && e.field in values ? e.field : 'form']: e.message });
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, onSubmit };
}

export function FormError(props: { message?: string | undefined }) {
  return props.message ? (
    <p className="error" role="alert">
      {props.message}
    </p>
  ) : null;
}

export function CopyButton(props: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span className="copy">
      <button
        type="button"
        onClick={() =>
          navigator.clipboard.writeText(props.text).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
      >
        {props.label}
      </button>
      <span role="status" aria-live="polite" className="hint">
        {state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Could not copy: select the text and copy it'
            : ''}
      </span>
    </span>
  );
}

/** A secret shown whole once (a new key, an endpoint's signing secret): focused, with a copy button. */
export function ShownOnce(props: {
  title: string;
  text: string;
  value: string;
  copyLabel: string;
  testId: string;
  onDone: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  const id = useId();
  useEffect(() => ref.current?.focus(), []);
  return (
    <section className="new-key" aria-labelledby={id} tabIndex={-1} ref={ref}>
      <h2 id={id}>{props.title}</h2>
      <p>{props.text}</p>
      <p>
        <code className="secret" data-testid={props.testId}>
          {props.value}
        </code>
      </p>
      <CopyButton text={props.value} label={props.copyLabel} />
      <button type="button" onClick={props.onDone}>
        I have saved it
      </button>
    </section>
  );
}

/** A link inside the app: the address for a new tab, a page change without a reload otherwise. */
export function Link(props: {
  to: string;
  go: (path: string) => void;
  current?: boolean;
  children: ReactNode;
}) {
  return (
    <a
      href={props.to}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        props.go(props.to);
      }}
    >
      {props.children}
    </a>
  );
}

/** A form's send button, saying so while the form is being sent; the form's refusal above it. */
export function Submit(props: { busy: boolean; error?: string | undefined; label: string; working: string }) {
  return (
    <>
      <FormError message={props.error} />
      <button type="submit" className="primary" disabled={props.busy}>
        {props.busy ? props.working : props.label}
      </button>
    </>
  );
}

/** What an action came to: its refusal, or what it did. */
export function Outcome(props: { problem: string; done: string }) {
  return (
    <>
      <FormError message={props.problem} />
      {props.done ? (
        <p className="success" role="status">
          {props.done}
        </p>
      ) : null}
    </>
  );
}

/**
 * A table of rows under named columns. On a narrow window each row is drawn as a card, each cell
 * under its column's name (the cells carry it in data-label, set here after each render).
 */
export function Table(props: { columns: readonly string[]; actions?: boolean; children: ReactNode }) {
  const ref = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    for (const row of ref.current?.tBodies[0]?.rows ?? [])
      for (const [i, cell] of [...row.cells].entries()) {
        const label = props.columns[i];
        if (label) cell.dataset.label = label;
      }
  });
  return (
    <table ref={ref} className="stack">
      <TableHead columns={props.columns} actions={props.actions} />
      <tbody>{props.children}</tbody>
    </table>
  );
}

/** A table's header row: its column names, and a last column named for screen readers when rows carry buttons. */
function TableHead(props: { columns: readonly string[]; actions?: boolean | undefined }) {
  return (
    <thead>
      <tr>
        {props.columns.map((c) => (
          <th scope="col" key={c}>
            {c}
          </th>
        ))}
        {props.actions ? (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

// The pages before a session: sign in, sign up, and answering an invitation.
import { useEffect, useState } from 'react';
import { type CallError, call, type SessionView } from './api.ts';
import { Field, Link, Submit, useForm } from './ui.tsx';

type Go = (path: string) => void;

export function SignIn(props: { onSignedIn: (s: SessionView) => void; go: Go }) {
  const form = useForm(
    (v) => call<SessionView>('POST', '/signin', { email: v.email, password: v.password }),
    props.onSignedIn,
  );
  return (
    <main className="door">
      <h1>Sign in to Scriptorium</h1>
      <form onSubmit={form.onSubmit} noValidate>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          error={form.errors.email}
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={form.errors.password}
          required
        />
        <Submit busy={form.busy} error={form.errors.form} label="Sign in" working="Signing in…" />
      </form>
      <p>
        No account yet?{' '}
        <Link to="/dashboard/signup" go={props.go}>
          Create one
        </Link>
      </p>
    </main>
  );
}

export function SignUp(props: { onSignedIn: (s: SessionView) => void; go: Go }) {
  const form = useForm(
    (v) =>
      call<SessionView>('POST', '/signup', {
        email: v.email,
        password: v.password,
        name: v.name,
        accountName: v.accountName,
      }),
    props.onSignedIn,
  );
  return (
    <main className="door">
      <h1>Create your Scriptorium account</h1>
      <form onSubmit={form.onSubmit} noValidate>
        <Field label="Your name" name="name" autoComplete="name" error={form.errors.name} required />
        <Field
          label="Company or project"
          name="accountName"
          autoComplete="organization"
          error={form.errors.accountName}
          hint="The account's name; you can invite others to it."
          required
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          error={form.errors.email}
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={form.errors.password}
          hint="12 to 128 characters."
          minLength={12}
          required
        />
        <Submit busy={form.busy} error={form.errors.form} label="Create account" working="Creating…" />
      </form>
      <p>
        Already have one?{' '}
        <Link to="/dashboard/signin" go={props.go}>
          Sign in
        </Link>
      </p>
    </main>
  );
}

interface Opened {
  accountName: string;
  email: string;
  role: string;
  hasUser: boolean;
}

/** /dashboard/invite#<token>: the token stays in the fragment, never sent in a URL or logged. */
export function Invite(props: { onSignedIn: (s: SessionView) => void; signedIn: SessionView | null }) {
  const token = location.hash.slice(1);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    call<Opened>('POST', '/invitations/lookup', { token }).then(setOpened, (e: CallError) =>
      setProblem(e.message),
    );
  }, [token]);
  const form = useForm(
    (v) => call<SessionView>('POST', '/invitations/accept', { token, name: v.name, password: v.password }),
    props.onSignedIn,
  );
  if (problem)
    return (
      <main className="door">
        <h1>Invitation</h1>
        <p className="error" role="alert">
          {problem[0]!.toUpperCase() + problem.slice(1)}.
        </p>
      </main>
    );
  if (!opened)
    return (
      <main className="door">
        <h1>Invitation</h1>
        <p>Opening the invitation…</p>
      </main>
    );
  return (
    <main className="door">
      <h1>Join {opened.accountName}</h1>
      <p>
        You are invited as {opened.role === 'owner' ? 'an owner' : 'a member'} with the address{' '}
        <strong>{opened.email}</strong>.
      </p>
      <form onSubmit={form.onSubmit} noValidate>
        {props.signedIn ? null : opened.hasUser ? (
          <Field
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={form.errors.password}
            required
          />
        ) : (
          <>
            <Field label="Your name" name="name" autoComplete="name" error={form.errors.name} required />
            <Field
              label="Choose a password"
              name="password"
              type="password"
              autoComplete="new-password"
              error={form.errors.password}
              hint="12 to 128 characters."
              required
            />
          </>
        )}
        <Submit
          busy={form.busy}
          error={form.errors.form ?? form.errors.token}
          label={`Join ${opened.accountName}`}
          working="Joining…"
        />
      </form>
    </main>
  );
}

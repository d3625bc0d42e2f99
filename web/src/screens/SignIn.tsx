import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form, Link } from 'react-aria-components';
import { Redirect, useSearch } from 'wouter';
import { ApiError } from '@service-api/sdk/browser';
import { describeError, fieldErrors } from '../api/errors.ts';
import { useSession, type SessionView } from '../api/session.tsx';
import { useT } from '../i18n/i18n.tsx';
import { Button } from '../ui/Button.tsx';
import { TextField } from '../ui/Field.tsx';
import { Alert } from '../ui/States.tsx';
import { AuthLayout, safeNext } from './AuthLayout.tsx';

function retryAfter(error: ApiError): number {
  const seconds = Number(
    (error.body as { error?: { details?: { retry_after?: number } } })?.error?.details?.retry_after,
  );
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60;
}

export function SignIn() {
  const t = useT();
  const { account, adopt, session } = useSession();
  const search = useSearch();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: async () => {
      const response = await account.request('POST', '/auth/sessions', { body: { email, password } });
      return ((await response.json()) as { data: SessionView }).data;
    },
    // The new session re-renders this screen, which then leaves for where the person was going.
    onSuccess: adopt,
  });
  if (session) return <Redirect to={safeNext(search)} replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  const error = signIn.error;
  let message: string | undefined;
  if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') message = t('signIn.invalid');
  else if (error instanceof ApiError && error.status === 429)
    message = t('signIn.throttled', { seconds: retryAfter(error) });
  else if (error) message = describeError(error, t).message;
  const notice = new URLSearchParams(search).get('reason');

  return (
    <AuthLayout title={t('signIn.title')} subtitle={t('signIn.subtitle')}>
      <Form className="stack" onSubmit={onSubmit} validationErrors={fieldErrors(error)}>
        {notice === 'signed-out' && !error && (
          <Alert tone="info" live="polite">
            {t('signIn.signedOut')}
          </Alert>
        )}
        {notice === 'expired' && !error && (
          <Alert tone="warning" live="polite">
            {t('signIn.expired')}
          </Alert>
        )}
        {message && <Alert>{message}</Alert>}
        <TextField
          label={t('signIn.email')}
          name="email"
          type="email"
          autoComplete="username"
          isRequired
          autoFocus
          value={email}
          onChange={setEmail}
        />
        <TextField
          label={t('signIn.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          isRequired
          value={password}
          onChange={setPassword}
        />
        <Button type="submit" variant="primary" isPending={signIn.isPending} className="btn-block">
          {signIn.isPending ? t('signIn.submitting') : t('signIn.submit')}
        </Button>
        <Link href="/forgot-password" className="auth-link">
          {t('signIn.forgot')}
        </Link>
      </Form>
    </AuthLayout>
  );
}

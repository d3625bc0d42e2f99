import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form, Link } from 'react-aria-components';
import { clearing, describeError, fieldErrors, isApiError } from '../api/errors.ts';
import { useSession, type SessionView } from '../api/session.tsx';
import { useT } from '../i18n/i18n.tsx';
import { Button } from '../ui/Button.tsx';
import { Alert } from '../ui/States.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { PasswordPair } from './PasswordPair.tsx';

/** The token arrives in the address's fragment (#token=...), which browsers never send to a server or a log. */
export function tokenFromHash(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

export function ResetPassword() {
  const t = useT();
  const { account, adopt } = useSession();
  const [token] = useState(tokenFromHash);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const reset = useMutation({
    mutationFn: async () => {
      const response = await account.request('POST', '/auth/password-resets/complete', { body: { token, password } });
      return ((await response.json()) as { data: SessionView }).data;
    },
    onSuccess: (view) => {
      history.replaceState(null, '', '/');
      adopt(view);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password === confirm) reset.mutate();
  };
  const invalid = !token || isApiError(reset.error, 'INVALID_TOKEN');
  return (
    <AuthLayout title={t('reset.title')}>
      {invalid ? (
        <>
          <Alert>{t('reset.invalidLink')}</Alert>
          <Link href="/forgot-password" className="btn btn-secondary btn-md">
            {t('reset.askAgain')}
          </Link>
        </>
      ) : (
        <Form className="stack" onSubmit={onSubmit} validationErrors={fieldErrors(reset.error)}>
          {reset.error && Object.keys(fieldErrors(reset.error)).length === 0 && (
            <Alert>{describeError(reset.error, t).message}</Alert>
          )}
          <PasswordPair
            password={password}
            confirm={confirm}
            onPassword={clearing(reset, setPassword)}
            onConfirm={clearing(reset, setConfirm)}
            labels={{ password: t('reset.password'), confirm: t('reset.confirm') }}
          />
          <Button type="submit" variant="primary" className="btn-block" isPending={reset.isPending}>
            {t('reset.submit')}
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}

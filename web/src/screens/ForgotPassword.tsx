import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form, Link } from 'react-aria-components';
import { clearing, describeError, fieldErrors } from '../api/errors.ts';
import { useSession } from '../api/session.tsx';
import { useT } from '../i18n/i18n.tsx';
import { Button } from '../ui/Button.tsx';
import { TextField } from '../ui/Field.tsx';
import { Alert } from '../ui/States.tsx';
import { AuthLayout } from './AuthLayout.tsx';

/** Asks for a reset link; the answer never tells whether the address has an account. */
export function ForgotPassword() {
  const t = useT();
  const { account } = useSession();
  const [email, setEmail] = useState('');
  const send = useMutation({
    mutationFn: () => account.request('POST', '/auth/password-resets', { body: { email: email.trim() } }),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };
  return (
    <AuthLayout title={t('forgot.title')} subtitle={send.isSuccess ? undefined : t('forgot.subtitle')}>
      {send.isSuccess ? (
        <Alert tone="success" live="polite">
          {t('forgot.sent', { email: email.trim() })}
        </Alert>
      ) : (
        <Form className="stack" onSubmit={onSubmit} validationErrors={fieldErrors(send.error)}>
          {send.error && Object.keys(fieldErrors(send.error)).length === 0 && (
            <Alert>{describeError(send.error, t).message}</Alert>
          )}
          <TextField
            label={t('forgot.email')}
            name="email"
            type="email"
            autoComplete="username"
            isRequired
            autoFocus
            value={email}
            onChange={clearing(send, setEmail)}
          />
          <Button type="submit" variant="primary" className="btn-block" isPending={send.isPending}>
            {t('forgot.submit')}
          </Button>
        </Form>
      )}
      <Link href="/sign-in" className="auth-link">
        {t('forgot.back')}
      </Link>
    </AuthLayout>
  );
}

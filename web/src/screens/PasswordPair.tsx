import { useT } from '../i18n/i18n.tsx';
import { TextField } from '../ui/Field.tsx';

export const MIN_PASSWORD = 10;

/** A new password typed twice; the second field says when they differ (checked before anything is sent). */
export function PasswordPair({
  password,
  confirm,
  onPassword,
  onConfirm,
  labels,
  name = 'password',
}: {
  password: string;
  confirm: string;
  onPassword(value: string): void;
  onConfirm(value: string): void;
  labels: { password: string; confirm: string };
  name?: string;
}) {
  const t = useT();
  return (
    <>
      <TextField
        label={labels.password}
        name={name}
        type="password"
        autoComplete="new-password"
        isRequired
        minLength={MIN_PASSWORD}
        maxLength={200}
        description={t('reset.hint')}
        value={password}
        onChange={onPassword}
      />
      <TextField
        label={labels.confirm}
        name={`${name}_confirm`}
        type="password"
        autoComplete="new-password"
        isRequired
        value={confirm}
        onChange={onConfirm}
        validate={(value) => (value && value !== password ? t('reset.mismatch') : null)}
      />
    </>
  );
}

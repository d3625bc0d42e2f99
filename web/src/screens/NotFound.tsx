import { Link } from 'react-aria-components';
import { useT } from '../i18n/i18n.tsx';
import { EmptyState } from '../ui/States.tsx';

export function NotFound() {
  const t = useT();
  return (
    <EmptyState
      title={t('app.notFoundTitle')}
      body={t('app.notFoundBody')}
      action={
        <Link href="/" className="btn btn-secondary btn-md">
          {t('app.goHome')}
        </Link>
      }
    />
  );
}

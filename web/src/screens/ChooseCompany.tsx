import { Button as AriaButton } from 'react-aria-components';
import { useSession } from '../api/session.tsx';
import { useT } from '../i18n/i18n.tsx';
import { Button } from '../ui/Button.tsx';
import { Alert } from '../ui/States.tsx';
import { AuthLayout } from './AuthLayout.tsx';

/** After sign-in, a person in several companies picks one (the shell's switcher changes it later). */
export function ChooseCompany() {
  const t = useT();
  const { session, chooseCompany, signOut } = useSession();
  const companies = session?.companies ?? [];
  return (
    <AuthLayout title={t('chooseCompany.title')} subtitle={companies.length ? t('chooseCompany.subtitle') : undefined}>
      {companies.length === 0 && <Alert tone="warning">{t('chooseCompany.none')}</Alert>}
      <ul className="choice-list">
        {companies.map((company) => (
          <li key={company.id}>
            <AriaButton className="choice" onPress={() => chooseCompany(company.id)}>
              <span className="choice-title">{company.name}</span>
              <span className="muted">{t(`roles.${company.role}`)}</span>
            </AriaButton>
          </li>
        ))}
      </ul>
      <Button variant="ghost" onPress={() => void signOut()}>
        {t('account.signOut')}
      </Button>
    </AuthLayout>
  );
}

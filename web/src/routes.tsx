// Every screen and its address. Public screens work without a session; the rest need a session and a chosen
// company, and render inside the application shell. Later screens (tasks, time, invoices) add a line here and
// an entry in shell/nav.ts.
import { lazy, Suspense, type ComponentType } from 'react';
import { RouterProvider } from 'react-aria-components';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { useSession } from './api/session.tsx';
import { ChooseCompany } from './screens/ChooseCompany.tsx';
import { SignIn } from './screens/SignIn.tsx';
import { ForgotPassword } from './screens/ForgotPassword.tsx';
import { ResetPassword } from './screens/ResetPassword.tsx';
import { AcceptInvitation } from './screens/AcceptInvitation.tsx';
import { Loading } from './ui/States.tsx';

// The signed-in part loads on first use: the sign-in screen ships only what it needs.
const AppShell = lazy(() => import('./shell/AppShell.tsx').then((m) => ({ default: m.AppShell })));
const NotFound = lazy(() => import('./screens/NotFound.tsx').then((m) => ({ default: m.NotFound })));
const ClientsList = lazy(() => import('./screens/clients/ClientsList.tsx').then((m) => ({ default: m.ClientsList })));
const ClientDetail = lazy(() =>
  import('./screens/clients/ClientDetail.tsx').then((m) => ({ default: m.ClientDetail })),
);
const Team = lazy(() => import('./screens/team/Team.tsx').then((m) => ({ default: m.Team })));
const Calendar = lazy(() => import('./screens/calendar/Calendar.tsx').then((m) => ({ default: m.Calendar })));
const Profile = lazy(() => import('./screens/Profile.tsx').then((m) => ({ default: m.Profile })));
const ContactsList = lazy(() =>
  import('./screens/contacts/ContactsList.tsx').then((m) => ({ default: m.ContactsList })),
);

const PUBLIC: Array<[string, ComponentType]> = [
  ['/sign-in', SignIn],
  ['/forgot-password', ForgotPassword],
  ['/reset-password', ResetPassword],
  ['/accept-invitation', AcceptInvitation],
];

const PRIVATE: Array<[string, ComponentType]> = [
  ['/clients', ClientsList],
  ['/clients/:id', ClientDetail],
  ['/contacts', ContactsList],
  ['/calendar', Calendar],
  ['/team', Team],
  ['/profile', Profile],
];

/**
 * Where a signed-out person lands: after signing out, with that said; otherwise remembering where they were
 * going, and saying so when a session ended under them (idle, signed out elsewhere, deactivated).
 */
function SignInFirst() {
  const [location] = useLocation();
  const { ended } = useSession();
  if (ended === 'signed-out') return <Redirect to="/sign-in?reason=signed-out" replace />;
  const query = new URLSearchParams();
  if (ended === 'expired') query.set('reason', 'expired');
  if (location !== '/') query.set('next', location);
  const search = query.toString();
  return <Redirect to={`/sign-in${search ? `?${search}` : ''}`} replace />;
}

function Private() {
  const { session, membership } = useSession();
  if (!session) return <SignInFirst />;
  if (!membership) return <ChooseCompany />;
  return (
    <Suspense fallback={<Loading />}>
      <AppShell>
        <Suspense fallback={<Loading />}>
          <Switch>
            <Route path="/">
              <Redirect to={PRIVATE[0]?.[0] ?? '/profile'} replace />
            </Route>
            {PRIVATE.map(([path, Screen]) => (
              <Route key={path} path={path} component={Screen} />
            ))}
            <Route component={NotFound} />
          </Switch>
        </Suspense>
      </AppShell>
    </Suspense>
  );
}

export function Routes() {
  const [, navigate] = useLocation();
  return (
    <RouterProvider navigate={(to) => navigate(to)}>
      <Switch>
        {PUBLIC.map(([path, Screen]) => (
          <Route key={path} path={path} component={Screen} />
        ))}
        <Route component={Private} />
      </Switch>
    </RouterProvider>
  );
}

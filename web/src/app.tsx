import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from './api/errors.ts';
import { SessionProvider, useSession } from './api/session.tsx';
import { LocaleProvider } from './i18n/i18n.tsx';
import { Routes } from './routes.tsx';
import { ErrorBoundary } from './shell/ErrorBoundary.tsx';
import { NoticeProvider } from './ui/Notices.tsx';

function makeQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    // A 401 on any request means the session ended (idle, signed out elsewhere, deactivated): ask the session
    // again, which sends the person to the sign-in screen.
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isApiError(error) && error.status === 401 && query.queryKey[0] !== 'session')
          void client.invalidateQueries({ queryKey: ['session'] });
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: true,
        retry: (count, error) => count < 2 && !(isApiError(error) && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
  return client;
}

function Localized() {
  const { membership } = useSession();
  return (
    <LocaleProvider localeCode={membership?.locale_code}>
      <NoticeProvider>
        <Routes />
      </NoticeProvider>
    </LocaleProvider>
  );
}

export function App() {
  const [queryClient] = useState(makeQueryClient);
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <Localized />
        </SessionProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}

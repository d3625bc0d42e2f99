// The signed-in member: the session (GET /auth/session), the company chosen among the memberships, and the SDK
// client that acts in it. The session cookie is HttpOnly; this code only ever sees the CSRF token, which every
// write carries (X-CSRF-Token) and which changes with each new session.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createClient, type ServiceClient } from '@service-api/sdk/browser';
import { isApiError } from './errors.ts';

export interface Membership {
  /** The company's id and name. */
  id: string;
  name: string;
  member_id: number;
  person_id: number;
  role: 'owner' | 'admin' | 'member';
  status: string;
  locale_code: string | null;
}

export interface SessionView {
  account: { id: number; email: string };
  companies: Membership[];
  csrf_token: string;
  idle_expires_at: string;
  absolute_expires_at: string;
}

interface SessionState {
  session: SessionView | null;
  membership: Membership | null;
  /** The SDK client of the chosen company (null until one is chosen). */
  client: ServiceClient | null;
  /** The SDK client for requests that name no company (signing in and out, the account's own sessions). */
  account: ServiceClient;
  chooseCompany(id: string): void;
  /** Takes a session the API just answered (sign-in, password change, invitation accepted). */
  adopt(view: SessionView): void;
  signOut(): Promise<void>;
  /** Drops the session on this page after the API ended it (sign out everywhere): the sign-in screen follows. */
  forget(reason: Ended): void;
  /** Why there is no session any more on this page: signed out here, or ended elsewhere (idle, deactivated). */
  ended: Ended | null;
}

export type Ended = 'signed-out' | 'expired';

const COMPANY_KEY = 'svc.company';
const SessionContext = createContext<SessionState | null>(null);

function storedCompany(): string | null {
  try {
    return localStorage.getItem(COMPANY_KEY);
  } catch {
    return null;
  }
}

function makeClient(csrf: () => string | undefined, company?: string): ServiceClient {
  // A long Retry-After (sign-in throttling, a rate limit) is told to the person rather than waited out in silence.
  return createClient({
    baseUrl: window.location.origin,
    company,
    csrfToken: csrf,
    userAgent: null,
    maxRetries: 1,
    maxRetryWaitMs: 2_000,
  });
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const csrf = useRef<string | undefined>(undefined);
  const account = useMemo(() => makeClient(() => csrf.current), []);
  const [companyId, setCompanyId] = useState<string | null>(storedCompany);
  const [endedHere, setEndedHere] = useState<Ended | null>(null);
  const hadSession = useRef(false);

  const query = useQuery({
    queryKey: ['session'],
    queryFn: async (): Promise<SessionView | null> => {
      try {
        const response = await account.request('GET', '/auth/session');
        return ((await response.json()) as { data: SessionView }).data;
      } catch (error) {
        if (isApiError(error) && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
  const session = query.data ?? null;
  csrf.current = session?.csrf_token;
  if (session) hadSession.current = true;
  const ended = session ? null : (endedHere ?? (hadSession.current ? 'expired' : null));

  const membership = useMemo(() => {
    const companies = session?.companies ?? [];
    return companies.find((c) => c.id === companyId) ?? (companies.length === 1 ? companies[0]! : null);
  }, [session, companyId]);
  const client = useMemo(() => (membership ? makeClient(() => csrf.current, membership.id) : null), [membership]);

  const chooseCompany = useCallback(
    (id: string) => {
      try {
        localStorage.setItem(COMPANY_KEY, id);
      } catch {
        /* private mode: the choice lasts for this page only */
      }
      // Another company's data must never show under this one's name.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
      setCompanyId(id);
    },
    [queryClient],
  );

  const adopt = useCallback(
    (view: SessionView) => {
      csrf.current = view.csrf_token;
      setEndedHere(null);
      queryClient.setQueryData(['session'], view);
    },
    [queryClient],
  );

  // The session is set to null before the rest goes: clearing the whole cache first would leave this provider
  // watching a removed query that still holds the old session, and nobody would be sent to sign in.
  const forget = useCallback(
    (reason: Ended) => {
      csrf.current = undefined;
      setEndedHere(reason);
      queryClient.setQueryData(['session'], null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await account.request('DELETE', '/auth/session');
    } finally {
      forget('signed-out');
    }
  }, [account, forget]);

  const value = useMemo<SessionState>(
    () => ({ session, membership, client, account, chooseCompany, adopt, signOut, forget, ended }),
    [session, membership, client, account, chooseCompany, adopt, signOut, forget, ended],
  );
  if (query.isPending) return null;
  if (query.isError) throw query.error;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The company's SDK client, for screens that only render once a company is chosen. */
export function useApi(): ServiceClient {
  const { client } = useSession();
  if (!client) throw new Error('useApi before a company is chosen');
  return client;
}

import { defineModule } from '../../platform/modules.ts';
import sessionRoutes from './sessions.routes.ts';
import { sweepSessions } from './sessions.accounts.ts';
import { sweepResets } from './sessions.resets.ts';
import { sweepThrottle } from './sessions.throttle.ts';

// For the demo owner, invitations and member deactivation: accounts, passwords and ending an account's sessions.
export { endAccountSessions, ensureAccount, setAccountPassword } from './sessions.accounts.ts';
export { generatePassword, hashPassword, PASSWORD_ALGORITHM } from './sessions.passwords.ts';
export { issueSession, type Client, type Issued, type SessionEnv } from './sessions.service.ts';
export type { EndReason } from './sessions.repository.ts';
// For invitations: the anonymous routes' hooks and replies, password checks and the attempt counters.
export { EDGE, sessionKit, type SessionKit } from './sessions.http.ts';
export { findAccountByEmail } from './sessions.repository.ts';
export { verifyAgainstNothing, verifyPassword } from './sessions.passwords.ts';
export { accountBucket, clearBucket, countAttempt, uncount, type Bucket } from './sessions.throttle.ts';
export { SessionView } from './sessions.schemas.ts';

const SWEEP_EVERY_MS = 10 * 60_000;

/** Sign-in and sessions of the web application (docs/decisions/0051): accounts, sessions, password resets. */
export default defineModule({
  name: 'sessions',
  tables: ['accounts', 'auth_throttle', 'password_resets', 'sessions'],
  changesAuth: true,
  entity: 'session',
  routes: sessionRoutes,
  periodic: [
    {
      name: 'session-sweep',
      everyMs: SWEEP_EVERY_MS,
      run: async (db) => ({
        sessions: await sweepSessions(db),
        resets: await sweepResets(db),
        throttle: await sweepThrottle(db),
      }),
    },
  ],
});

import type { DataOf, operations } from '@service-api/sdk/browser';
import type { Membership } from '../../api/session.tsx';

export type Member = DataOf<operations['getMember']>;
export type Role = 'owner' | 'admin' | 'member';

export interface Invitation {
  id: number;
  member_id: number;
  person_id: number;
  email: string;
  name: string | null;
  surname: string | null;
  role: Role;
  status: 'pending' | 'accepted' | 'cancelled' | 'expired';
  created_at: string;
  expires_at: string;
}

export const memberName = (m: { name?: string | null; surname?: string | null; email?: string | null }) =>
  [m.name, m.surname].filter(Boolean).join(' ') || m.email || '';

export const isManager = (membership: Membership | null) =>
  membership?.role === 'owner' || membership?.role === 'admin';

/** The roles this person may give: only an owner makes or unmakes owners. */
export const assignableRoles = (me: Membership | null): Role[] =>
  me?.role === 'owner' ? ['member', 'admin', 'owner'] : ['member', 'admin'];

export const STATUS_TONE: Record<string, 'success' | 'accent' | 'neutral' | 'warning'> = {
  active: 'success',
  pending: 'accent',
  limited: 'neutral',
  inactive: 'warning',
};

import { fail } from '../../platform/errors.ts';
import type { ContractStatus } from './contracts.schemas.ts';

/**
 * The one status rule of dates (decision 0020): an active contract whose last day (date_until) is today or
 * earlier is finished. Pending (on hold) and finished contracts keep their status; a future date_until leaves an
 * active contract active until the day comes (the hourly contract-ends sweep then finishes it).
 */
export function settleStatus(status: ContractStatus, dateUntil: string | null, today: string): ContractStatus {
  return status === 'active' && dateUntil !== null && dateUntil <= today ? 'finished' : status;
}

/** The moves a PATCH of status may make; finishing is done by date_until, never by status. */
const MOVES: Record<ContractStatus, readonly ContractStatus[]> = {
  active: ['pending'],
  finished: ['pending'],
  pending: ['active'],
};

export function assertStatusMove(from: ContractStatus, to: ContractStatus): void {
  if (from === to || MOVES[from].includes(to)) return;
  fail(
    'INVALID_STATUS_TRANSITION',
    to === 'finished'
      ? 'A contract is finished by setting date_until, not by status'
      : `A ${from} contract cannot move to ${to}; allowed: ${MOVES[from].join(', ')}`,
    { from, to, allowed: MOVES[from] },
  );
}

/** 409 CONTRACT_LOCKED unless pending: only a contract on hold may be deleted. */
export function assertDeletable(status: ContractStatus): void {
  if (status === 'pending') return;
  fail(
    'CONTRACT_LOCKED',
    `A ${status} contract cannot be deleted; move it to pending first (PATCH status=pending with If-Match)`,
    { status },
  );
}

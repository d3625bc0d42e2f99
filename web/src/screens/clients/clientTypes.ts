import type { DataOf, operations } from '@service-api/sdk/browser';
import type { MessageKey } from '../../i18n/i18n.tsx';

export type Client = DataOf<operations['getClient']>;
export type ClientStatus = Client['status'];
export const CLIENT_STATUSES: ClientStatus[] = ['active', 'prospect', 'inactive'];
export const STATUS_TONE = { active: 'success', prospect: 'accent', inactive: 'neutral' } as const;
export const statusLabel = (status: string): MessageKey => `status.${status}` as MessageKey;

import type { DataOf, operations } from '@service-api/sdk/browser';

export type Contact = DataOf<operations['getContact']>;
export const fullName = (c: Pick<Contact, 'name' | 'surname'>) => [c.name, c.surname].filter(Boolean).join(' ');

import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';

/** The client's address in its parts, as a document's buyer shows it (the invoice's snapshot keeps one line). */
export interface ClientAddressParts {
  client_country_code: string | null;
  client_street: string | null;
  client_city: string | null;
  client_zip: string | null;
  client_state: string | null;
}

/** The address of the client, deleted or not (an invoice keeps naming it); undefined when there is no such row. */
export function clientAddressParts(ctx: Ctx, clientId: number): Promise<ClientAddressParts | undefined> {
  return scoped
    .select(ctx, 'clients', 'c')
    .select([
      'c.address_country_code as client_country_code',
      'c.address_street as client_street',
      'c.address_city as client_city',
      'c.address_zip as client_zip',
      'c.address_state as client_state',
    ])
    .where('c.id', '=', clientId)
    .executeTakeFirst();
}

import { defineModule } from '../../platform/modules.ts';
import { throughParent } from '../../platform/visibility.ts';
import contactRoutes from './contacts.routes.ts';
import { SAMPLE_STAMP as STAMP } from '../../platform/events.ts';

// What clients inline: the contact schema and the client's contacts as JSON built in SQL.
export { inlineContacts } from './contacts.repository.ts';
export { Contact } from './contacts.schemas.ts';
// Whom a client e-mail goes to (content-templates).
export { mailContacts, type MailContact } from './contacts.mail.ts';
// One source of GET /search.
export { contactSearchHits } from './contacts.search.ts';
/** Invoices: the primary contact's e-mail is the last-resort recipient, its line the client's contact. */
export { primaryContactEmail, primaryContactLine } from './contacts.primary.ts';

export default defineModule({
  name: 'contacts',
  tables: ['contacts'],
  visibility: { contacts: throughParent('clients', 'client_id') },
  entity: 'contact',
  routes: contactRoutes,
  events: { contact: ['created', 'updated', 'deleted'] },
  samples: {
    contact: {
      id: 55,
      client_id: 101,
      person_id: null,
      is_primary: 1,
      name: 'Jane',
      surname: 'Doe',
      email: 'jane@acme.example',
      job_title: 'CFO',
      mobile_phone: null,
      work_phone: null,
      locale_code: 'en',
      birthday: null,
      ext_contact_id: null,
      custom_fields: null,
      created_at: STAMP,
      updated_at: STAMP,
    },
  },
});

-- The client e-mails each company has sent in the current fixed window (SVC_CLIENT_MAIL_QUOTA per
-- SVC_CLIENT_MAIL_WINDOW seconds): one row per company, counted by the sending request in its own transaction,
-- so every instance sees one count and a request that rolls back uses none of the quota.
CREATE TABLE client_mail_quota (
  company_id uuid PRIMARY KEY REFERENCES companies (id),
  window_start timestamptz NOT NULL,
  mails integer NOT NULL CHECK (mails >= 0)
);

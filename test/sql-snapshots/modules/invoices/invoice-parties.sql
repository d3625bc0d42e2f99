-- src/modules/invoices/invoice-parties.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- contactText
nullif(trim(concat_ws(' ', p.name, p.surname,
case when p.email is not null and p.email <> '' then '<' || p.email || '>' end)), '')

-- clientSnapshot
nullif(concat_ws(', ', nullif(c.address_street, ''), nullif(c.address_zip, ''),
nullif(c.address_city, ''), nullif(c.address_state, ''), upper(nullif(c.address_country_code, ''))), '')

-- clientSnapshot
(select ${contactText} from contacts p where p.company_id = c.company_id
and p.client_id = c.id and p.deleted_at is null order by p.is_primary desc, p.id limit 1)

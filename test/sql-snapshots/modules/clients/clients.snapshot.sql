-- src/modules/clients/clients.snapshot.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- clientSnapshot
nullif(concat_ws(', ', nullif(c.address_street, ''), nullif(c.address_zip, ''),
nullif(c.address_city, ''), nullif(c.address_state, ''), upper(nullif(c.address_country_code, ''))), '')

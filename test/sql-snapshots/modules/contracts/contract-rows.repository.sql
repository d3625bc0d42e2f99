-- src/modules/contracts/contract-rows.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- PRICE_JSON
json_build_object('id', p.id, 'contract_row_id', p.contract_row_id, 'net_price', p.net_price,
'active_from', p.active_from, 'created_at', ${isoz('p.created_at')}, 'updated_at', ${isoz('p.updated_at')})

-- ROW_JSON
json_build_object('id', r.id, 'contract_id', r.contract_id,
'description', r.description, 'discount_rate', r.discount_rate, 'product_id', r.product_id, 'quantity', r.quantity,
'unit', r.unit, 'invoice_time_min', r.invoice_time_min, 'net_price', r.net_price, 'tax_id', r.tax_id,
'article_id', r.article_id, 'resource_id', r.resource_id, 'billing_project_id', r.billing_project_id,
'ext_variable', r.ext_variable,
'prices', (select coalesce(json_agg(${PRICE_JSON} order by p.active_from, p.id), '[]'::json)
  from contract_row_prices p where p.company_id = r.company_id and p.contract_row_id = r.id),
'created_at', ${isoz('r.created_at')}, 'updated_at', ${isoz('r.updated_at')})

-- anyContractPriceSql
exists (select 1 from contract_rows r join contracts k on k.company_id = r.company_id and k.id = r.contract_id
where ${tenant(ctx, 'r')} and k.deleted_at is null and k.type = 'contract'
  and (r.net_price is not null or exists (select 1 from contract_row_prices rp
        where rp.company_id = r.company_id and rp.contract_row_id = r.id)))

-- copyRows
with map as materialized (
  select s.src_id, s.target_id, nextval(pg_get_serial_sequence('contract_rows', 'id')) as new_id
  from (select r.id as src_id, t.target_id
    from contract_rows r cross join unnest(${[...targetIds]}::int[]) as t(target_id)
    where ${tenant(ctx, 'r')} and r.contract_id = ${fromId}
    order by t.target_id, r.id) s
), copied as (
  insert into contract_rows (company_id, id, contract_id, description, discount_rate, product_id, quantity, unit,
    invoice_time_min, net_price, tax_id, article_id, resource_id, billing_project_id, ext_variable)
  select r.company_id, m.new_id, m.target_id, r.description, r.discount_rate, r.product_id, r.quantity, r.unit,
    r.invoice_time_min, r.net_price, r.tax_id, r.article_id, r.resource_id, r.billing_project_id, r.ext_variable
  from map m join contract_rows r on ${tenant(ctx, 'r')} and r.id = m.src_id
  order by m.target_id, m.src_id
  returning id
), prices as (
  insert into contract_row_prices (company_id, contract_row_id, net_price, active_from)
  select p.company_id, m.new_id, p.net_price, p.active_from
  from map m join contract_row_prices p on ${tenant(ctx, 'p')} and p.contract_row_id = m.src_id
  returning id
)
select (select count(*)::int from copied) as copied, (select count(*) from prices) as prices

-- rowPriceInEffectSql
(select rp.net_price from contract_row_prices rp where ${tenant(ctx, 'rp')}
  and rp.contract_row_id = ${row} and rp.active_from <= ${day}
order by rp.active_from desc, rp.id desc limit 1)

-- rowPriceStartsSql
select rp.active_from from contract_row_prices rp
where ${tenant(ctx, 'rp')} and rp.contract_row_id = ${row}

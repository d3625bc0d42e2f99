-- src/modules/products/products.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- pricesJson
coalesce((
select json_agg(json_build_object(
  'id', pp.id, 'product_id', pp.product_id, 'net_price', pp.net_price, 'currency', pp.currency,
  'active_from', to_char(pp.active_from, 'YYYY-MM-DD'),
  'created_at', to_char(pp.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'updated_at', to_char(pp.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  order by pp.active_from, pp.currency nulls first, pp.id)
from product_prices pp where pp.company_id = p.company_id and pp.product_id = p.id), '[]'::json)

-- productFacts
exists (select 1 from product_prices pp where pp.company_id = pr.company_id
and pp.product_id = pr.id)

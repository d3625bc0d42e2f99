-- src/modules/products/prices.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- samePriceSlot
pp.currency is not distinct from ${slot.currency}

-- countPrices
count(*)::int

-- priceInEffectSql
(select pp.net_price from product_prices pp
where ${tenant(ctx, 'pp')} and pp.product_id = ${at.product}
  and pp.active_from <= ${at.day}
  and (pp.currency = ${at.currency} or (pp.currency is null and ${at.currency} = ${at.companyCurrency}::text))
order by pp.active_from desc, pp.currency is null, pp.id desc limit 1)

-- priceStartsSql
select pp.active_from from product_prices pp
where ${tenant(ctx, 'pp')} and pp.product_id = ${product}

-- anyProductPriceSql
exists (select 1 from product_prices pp join products p on p.company_id = pp.company_id and p.id = pp.product_id
where ${tenant(ctx, 'pp')} and p.deleted_at is null and pp.active_from <= ${day})

-- priceOn
${date}::date

-- priceOn
${wanted}::text

-- priceOn
select ${price}::text as net_price

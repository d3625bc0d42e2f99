-- src/modules/products/prices.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- samePriceSlot
pp.currency is not distinct from ${slot.currency}

-- countPrices
count(*)::int

-- priceOn
pp.net_price::text

-- priceOn
pp.currency is null

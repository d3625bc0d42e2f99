import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { SEARCH_TYPES, type SearchParams, type SearchType } from './search.schemas.ts';
import * as repo from './search.repository.ts';

export async function search(ctx: Ctx, params: SearchParams) {
  const limit = params.limit ?? 50;
  const offset = params.offset ?? 0;
  const types = [...new Set((splitList(params.types) as SearchType[] | undefined) ?? SEARCH_TYPES)];
  const { rows, total } = await repo.search(ctx, params.q, types, limit, offset);
  const hasMore = rows.length > limit;
  return { data: hasMore ? rows.slice(0, limit) : rows, meta: { limit, offset, total, has_more: hasMore } };
}

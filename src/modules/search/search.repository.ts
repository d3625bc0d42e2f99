import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { MAX_OFFSET } from '../../platform/lists.ts';
import { likeContains } from '../../platform/sql.ts';
import { contactSearchHits } from '../contacts/index.ts';
import { projectSearchHits } from '../projects/index.ts';
import { taskSearchHits } from '../tasks/index.ts';
import type { SearchHitRecord, SearchType } from './search.schemas.ts';

// Each owner answers its source with the same columns (type, id, title, subtitle, client_id, rank); rank 0 is a
// match at the start of the title, 1 anywhere else. The union stays one statement.
const SOURCES = { task: taskSearchHits, contact: contactSearchHits, project: projectSearchHits } as const;

/** One page of hits across the chosen kinds, best matches first, then by title; and the (capped) total. */
export async function search(ctx: Ctx, text: string, types: readonly SearchType[], limit: number, offset: number) {
  const contains = likeContains(text);
  const patterns = { contains, prefix: contains.slice(1) }; // the escaped text followed by %: a prefix match
  const parts = types.map((type) => SOURCES[type](ctx, patterns) as ReturnType<typeof taskSearchHits>);
  const union = parts.slice(1).reduce((all, part) => all.unionAll(part), parts[0]!);
  const rows = (await ctx.db
    .selectFrom(union.as('s'))
    .select(['s.type', 's.id', 's.title', 's.subtitle', 's.client_id'])
    .orderBy('s.rank')
    .orderBy(sql`lower(s.title)`)
    .orderBy('s.type')
    .orderBy('s.id')
    .limit(limit + 1)
    .offset(offset)
    .execute()) as SearchHitRecord[];
  // Counting stops past 10,000 like every list's total, so a broad q stays cheap.
  const capped = ctx.db
    .selectFrom(union.as('u'))
    .select(sql.lit(1).as('one'))
    .limit(MAX_OFFSET + 1);
  const counted = await ctx.db
    .selectFrom(capped.as('c'))
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: counted.n > MAX_OFFSET ? ('10000+' as const) : counted.n };
}

import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { MAX_OFFSET } from '../../platform/lists.ts';
import { likeContains } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { idVisible, rowVisible } from '../../platform/visibility.ts';
import type { SearchHitRecord, SearchType } from './search.schemas.ts';

interface Patterns {
  contains: string;
  prefix: string;
}

// Each source answers the same columns; rank 0 is a match at the start of the title, 1 anywhere else.
function tasks(ctx: Ctx, p: Patterns) {
  return scoped
    .select(ctx, 'tasks', 't')
    .select([
      sql<SearchType>`'task'`.as('type'),
      't.id',
      't.title as title',
      sql<string | null>`t.status`.as('subtitle'),
      't.client_id',
      sql<number>`case when t.title ilike ${p.prefix} then 0 else 1 end`.as('rank'),
    ])
    .where('t.deleted_at', 'is', null)
    .where('t.template_kind', 'is', null)
    .where('t.title', 'ilike', p.contains)
    .where(rowVisible(ctx, 'tasks', 't'));
}

function contacts(ctx: Ctx, p: Patterns) {
  const fullName = sql<string>`trim(ct.name || ' ' || coalesce(ct.surname, ''))`;
  return scoped
    .select(ctx, 'contacts', 'ct')
    .select([
      sql<SearchType>`'contact'`.as('type'),
      'ct.id',
      fullName.as('title'),
      sql<string | null>`ct.email`.as('subtitle'),
      sql<number | null>`ct.client_id`.as('client_id'),
      sql<number>`case when ${fullName} ilike ${p.prefix} or ct.surname ilike ${p.prefix} or ct.email ilike ${p.prefix} then 0 else 1 end`.as(
        'rank',
      ),
    ])
    .where('ct.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb(fullName, 'ilike', p.contains),
        eb('ct.surname', 'ilike', p.contains),
        eb('ct.email', 'ilike', p.contains),
      ]),
    )
    .where(idVisible(ctx, 'clients', 'ct.company_id', 'ct.client_id'));
}

function projects(ctx: Ctx, p: Patterns) {
  return scoped
    .select(ctx, 'projects', 'p')
    .select([
      sql<SearchType>`'project'`.as('type'),
      'p.id',
      'p.name as title',
      sql<string | null>`p.status`.as('subtitle'),
      'p.client_id',
      sql<number>`case when p.name ilike ${p.prefix} then 0 else 1 end`.as('rank'),
    ])
    .where('p.deleted_at', 'is', null)
    .where('p.name', 'ilike', p.contains)
    .where(rowVisible(ctx, 'projects', 'p'));
}

const SOURCES = { task: tasks, contact: contacts, project: projects } as const;

/** One page of hits across the chosen kinds, best matches first, then by title; and the (capped) total. */
export async function search(ctx: Ctx, text: string, types: readonly SearchType[], limit: number, offset: number) {
  const contains = likeContains(text);
  const patterns = { contains, prefix: contains.slice(1) }; // the escaped text followed by %: a prefix match
  const parts = types.map((type) => SOURCES[type](ctx, patterns) as ReturnType<typeof tasks>);
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

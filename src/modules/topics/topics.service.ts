import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { toFlag } from '../../platform/fields.ts';
import type { TopicCreateBody, TopicRecord, TopicUpdateBody } from './topics.schemas.ts';
import * as repo from './topics.repository.ts';
import type { TopicColumns } from './topics.repository.ts';

function columnsFrom(body: TopicCreateBody | TopicUpdateBody): Partial<TopicColumns> {
  const { billable, ...plain } = body;
  const columns: Partial<TopicColumns> = { ...plain };
  if (billable !== undefined) columns.billable = toFlag(billable) as 0 | 1;
  return columns;
}

export const listTopics = (ctx: Ctx, params: object) => repo.listTopics(ctx, params);

export async function getTopic(ctx: Ctx, id: number): Promise<TopicRecord> {
  const topic = await repo.findTopic(ctx, id);
  if (!topic) throw notFound('Topic');
  return topic;
}

export async function createTopic(ctx: Ctx, body: TopicCreateBody): Promise<TopicRecord> {
  return inTransaction(ctx, async (tx) => {
    const id = await repo.insertTopic(tx, { status: 'active', color: null, billable: 1, ...columnsFrom(body), name: body.name });
    return getTopic(tx, id);
  });
}

export async function updateTopic(ctx: Ctx, id: number, body: TopicUpdateBody): Promise<TopicRecord> {
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockTopic(tx, id))) throw notFound('Topic');
    if (Object.keys(body).length === 0) return getTopic(tx, id);
    await repo.updateTopic(tx, id, columnsFrom(body));
    return getTopic(tx, id);
  });
}

export async function deleteTopic(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockTopic(tx, id))) throw notFound('Topic');
    await repo.softDeleteTopic(tx, id);
  });
}

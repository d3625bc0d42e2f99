import type { TopicListParams } from './topics.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { toFlag } from '../../platform/fields.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import type { TopicCreateBody, TopicRecord, TopicUpdateBody } from './topics.schemas.ts';
import * as repo from './topics.repository.ts';

const target = { what: 'Topic', lock: repo.topics.lock, read: repo.findTopic };

function columnsFrom(body: TopicCreateBody | TopicUpdateBody): RowChanges<'topics'> {
  const { billable, ...plain } = body;
  return billable === undefined ? plain : { ...plain, billable: toFlag(billable) as 0 | 1 };
}

export const listTopics = (ctx: Ctx, params: TopicListParams) => repo.listTopics(ctx, params);

export async function getTopic(ctx: Ctx, id: number): Promise<TopicRecord> {
  return orNotFound(await repo.findTopic(ctx, id), 'Topic');
}

export async function createTopic(ctx: Ctx, body: TopicCreateBody): Promise<TopicRecord> {
  return inTransaction(ctx, async (tx) => {
    const id = await repo.topics.insert(tx, {
      status: 'active',
      color: null,
      billable: 1,
      ...columnsFrom(body),
      name: body.name,
    });
    return getTopic(tx, id);
  });
}

export const updateTopic = (ctx: Ctx, id: number, body: TopicUpdateBody) =>
  mutate(ctx, target, id, body, (tx) => repo.topics.update(tx, id, columnsFrom(body)));

export const deleteTopic = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.topics.softDelete(tx, id));

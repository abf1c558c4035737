// Topic memory in Postgres: one sealed blob per topic plus the clear counts of the memory check.
// Topics are found by their keyed hash (topic-index.ts), never stored as text.
// Saves merge (never overwrite) under a per-topic lock, so two runs saving at once both land.
// The SQL is server/topics/repository.ts's; opening, merging and sealing the blob stay here.
import type { Db } from '#db/database.ts'
import { UnreadableError } from '#server/crypto/sealed-column.ts'
import type { Logger } from '#server/logger.ts'
import { displayTopic } from '#server/text/topic-key.ts'
import {
  MEMORY_TTL_DAYS,
  type MemoryContent,
  type MemoryContribution,
  type MemoryStats,
  MemoryUnreadableError,
  type TopicMemory,
} from '#server/topics/contract.ts'
import { upgradeFact } from '#server/topics/facts.ts'
import { memoryStats } from '#server/topics/insights.ts'
import { mergeMemory } from '#server/topics/merge.ts'
import {
  findLiveTopicMemory,
  findLiveTopicMemoryById,
  getTopicMemory,
  listLiveTopicMemories,
  lockTopic,
  type TopicMemoryColumn,
  type TopicMemoryRow,
  upsertTopicMemory,
} from '#server/topics/repository.ts'
import type { TopicIndex } from '#server/topics/topic-index.ts'
import type { StoredMemory } from '#server/vocabulary/memory.ts'

export type MemoryContext = {
  db: Db
  /** The memory blob's codec (the topics repository's topicMemoryColumn, built once from the key ring). */
  column: TopicMemoryColumn
  topicIndex: TopicIndex
  log: Logger
  now: () => Date
  /** Facts kept per topic (MEMORY_MAX_FACTS); the default when absent. */
  maxFacts?: number
}

/** Whether this server holds the key that memory sealed with `keyId` needs (it may still not open). */
export function holdsMemoryKey(context: Pick<MemoryContext, 'column'>, keyId: string): boolean {
  return context.column.holds(keyId)
}

const DAY_MS = 86_400_000

/** Memory as stored, in today's shape: facts read by an older edition of the rules are read again. */
function upgrade(stored: StoredMemory): MemoryContent {
  return { ...stored, facts: stored.facts.map(upgradeFact) }
}

// What the stored schema reads is all memory holds: a field added to memory's types but not to the
// schema would be dropped when memory is next read, so it fails to compile here instead.
type Covers<Stored, T> = Exclude<keyof T, keyof Stored> extends never ? true : false
const storedCovers: [
  Covers<StoredMemory, MemoryContent>,
  Covers<StoredMemory['facts'][number], MemoryContent['facts'][number]>,
  Covers<StoredMemory['sources'][number], MemoryContent['sources'][number]>,
  Covers<StoredMemory['ledger'][number], MemoryContent['ledger'][number]>,
  Covers<StoredMemory['runs'][number], MemoryContent['runs'][number]>,
] = [true, true, true, true, true]
void storedCovers

/** Opens a row; unreadable memory is logged and read as none, never shown. */
function openRow(context: MemoryContext, row: TopicMemoryRow): TopicMemory | undefined {
  try {
    const content = upgrade(context.column.open({ keyId: row.key_id, ciphertext: row.ciphertext }, row.topic_id))
    return {
      // Memory saved before facts were claims reads as claims without quotes (migrated on next save).
      ...content,
      // Memory saved before topics were cleaned of bidirectional controls may still hold them.
      topic: displayTopic(content.topic),
      topicId: row.topic_id,
      runCount: row.run_count,
      urlsIndexed: row.urls_indexed,
      factsStored: row.facts_stored,
      lastRunAt: row.last_run_at,
      expiresAt: row.expires_at,
    }
  } catch (error) {
    if (!(error instanceof UnreadableError)) throw error
    context.log.warn({ topicId: row.topic_id, keyId: row.key_id, reason: error.message }, 'topic memory is unreadable')
    return undefined
  }
}

/**
 * The topic's memory, or undefined when there is none, it expired, or it cannot be opened. `read`
 * is the memory row already read for a topic hash (null: none there), used when that is this
 * topic's hash; otherwise the memory is looked up.
 */
export async function loadTopicMemory(
  context: MemoryContext,
  accountId: string,
  topic: string,
  read?: { topicHash: Buffer; row: TopicMemoryRow | null },
) {
  const hash = context.topicIndex.hash(accountId, topic)
  const row = read?.topicHash.equals(hash)
    ? read.row
    : await findLiveTopicMemory(context.db, accountId, hash, context.now())
  return row ? openRow(context, row) : undefined
}

/**
 * The topic's memory by its id (the dashboard's addresses), with its hash for finding its runs;
 * undefined as for loadTopicMemory, and for another account's topic or a malformed id.
 */
export async function loadTopicMemoryById(
  context: MemoryContext,
  accountId: string,
  topicId: string,
): Promise<(TopicMemory & { topicHash: Buffer }) | undefined> {
  const row = await findLiveTopicMemoryById(context.db, accountId, topicId, context.now())
  const memory = row?.topic_hash ? openRow(context, row) : undefined
  return memory && { ...memory, topicHash: row?.topic_hash as Buffer }
}

/** Every live topic memory of the account (for search across topics). */
export async function loadAccountMemories(context: MemoryContext, accountId: string): Promise<TopicMemory[]> {
  const rows = await listLiveTopicMemories(context.db, accountId, context.now())
  return rows.map((row) => openRow(context, row)).filter((memory) => memory !== undefined)
}

/** The memory check of spec 2.4: counts, or null for no (live, readable) memory. */
export async function checkTopicMemory(context: MemoryContext, accountId: string, topic: string) {
  const memory = await loadTopicMemory(context, accountId, topic)
  return memory ? memoryStats(memory) : null
}

/**
 * Merges what a run learned into the topic's memory and refreshes its 30-day expiry. Saving the same
 * run twice changes nothing the second time. Memory that cannot be opened is not overwritten:
 * MemoryUnreadableError, and the caller goes on without saving.
 */
export function saveTopicMemory(
  context: MemoryContext,
  accountId: string,
  topic: string,
  contribution: MemoryContribution,
): Promise<SavedMemory> {
  return context.db.transaction().execute((trx) => saveTopicMemoryIn(trx, context, accountId, topic, contribution))
}

type SavedMemory = { stats: MemoryStats; added: { facts: number; sources: number } }

/**
 * saveTopicMemory in a transaction of the caller's (the run's end, so the run and what it taught
 * memory commit together). The topic's lock is held until that transaction ends.
 */
export async function saveTopicMemoryIn(
  trx: Db,
  context: MemoryContext,
  accountId: string,
  topic: string,
  contribution: MemoryContribution,
): Promise<SavedMemory> {
  // One save per topic at a time: the second waits here, then merges into what the first stored.
  const { id: topicId, made } = await lockTopic(trx, accountId, context.topicIndex.hash(accountId, topic))
  const now = context.now()
  // A topic this statement made has no memory to read (a topic's first save, so every new topic's).
  const row = made ? undefined : await getTopicMemory(trx, topicId)
  let existing: MemoryContent | undefined
  let runCount = 0
  if (row && row.expires_at > now) {
    try {
      existing = upgrade(context.column.open({ keyId: row.key_id, ciphertext: row.ciphertext }, topicId))
    } catch (error) {
      if (error instanceof UnreadableError) throw new MemoryUnreadableError(topicId)
      throw error
    }
    runCount = row.run_count
  }
  const { content, added } = mergeMemory(existing, contribution, displayTopic(topic), context.maxFacts)
  const newRun = !existing?.runs.some((run) => run.runId === contribution.runId)
  const sealed = context.column.seal(content, topicId)
  const values = {
    key_id: sealed.keyId,
    ciphertext: sealed.ciphertext,
    run_count: runCount + (newRun ? 1 : 0),
    urls_indexed: content.ledger.length,
    // What memory holds true now: facts a later run updated or contradicted are history.
    facts_stored: content.facts.filter((fact) => !fact.supersededBy).length,
    last_run_at: newRun ? contribution.at : (row?.last_run_at ?? contribution.at),
    expires_at: new Date(now.getTime() + MEMORY_TTL_DAYS * DAY_MS),
    updated_at: now,
  }
  await upsertTopicMemory(trx, topicId, values)
  return {
    stats: memoryStats({
      runCount: values.run_count,
      urlsIndexed: values.urls_indexed,
      factsStored: values.facts_stored,
      lastRunAt: values.last_run_at,
    }),
    added,
  }
}

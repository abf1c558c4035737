// Private Atom feeds of a topic's or a series' deltas (issue 20, step 5). A feed is read without a
// login, by a random token in its URL: the token is shown once, stored as its SHA-256, bound to the
// account and to one topic or series, and revoked for good. Reading a feed is cheap: the clear
// `run_changes` index (written as each run ends, below) chooses the entries, and only the reports of
// the entries shown are opened, one decrypt each, plus the feed's sealed title. Memory is never
// opened on a read. The SQL is server/notify/repository/feeds.ts's, which seals and opens the title.
import { randomUUID } from 'node:crypto'
import type { Db } from '#db/database.ts'
import { randomToken, sha256 } from '#server/crypto/secrets.ts'
import type { LockAccount } from '#server/notify/account-lock.ts'
import { type Feed, MAX_FEEDS_PER_ACCOUNT } from '#server/notify/contract.ts'
import {
  countActiveFeeds,
  type Feeds,
  insertRunChanges,
  listSeriesFeedRuns,
  listTopicFeedRuns,
} from '#server/notify/repository/feeds.ts'
import type { RunsToTell } from '#server/notify/runs-to-tell.ts'
import type { Report } from '#server/research/report-types.ts'
import { changeCount, type RunEndHook } from '#server/runs/contract.ts'

/** Entries a feed shows: feed readers poll, and a month of daily runs is plenty to catch up on. */
export const FEED_ENTRIES = 20

export type FeedEntry = { runId: string; finishedAt: Date; report: Report }

/** A feed as its reader gets it: what it follows and its newest entries. */
export type FeedContent = Feed & { entries: FeedEntry[] }

/** The token: 256 random bits, base64url. Anything else in a feed URL is no feed. */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/

/**
 * Makes a feed of the account's topic or series (the caller checked it is the account's); the token
 * once. Undefined when the account already has MAX_FEEDS_PER_ACCOUNT working feeds: counted and
 * inserted under the account's row lock, so a burst cannot pass the cap.
 */
export async function createFeed(
  deps: { db: Db; feeds: Feeds; lockAccount: LockAccount },
  input: { accountId: string; topic: string } & ({ topicId: string } | { seriesId: string }),
): Promise<{ feed: Feed; token: string } | undefined> {
  const token = randomToken()
  const feed = await deps.db.transaction().execute(async (trx) => {
    await deps.lockAccount(trx, input.accountId)
    if ((await countActiveFeeds(trx, input.accountId)) >= MAX_FEEDS_PER_ACCOUNT) return undefined
    return deps.feeds.insert(trx, {
      id: randomUUID(),
      accountId: input.accountId,
      topic: input.topic,
      topicId: 'topicId' in input ? input.topicId : null,
      seriesId: 'seriesId' in input ? input.seriesId : null,
      tokenHash: sha256(token),
    })
  })
  return feed && { feed, token }
}

/** A page of the account's working feeds, newest first; `nextCursor` continues it. */
export async function listFeeds(
  db: Db,
  feeds: Feeds,
  accountId: string,
  page: { limit: number; cursor?: string },
): Promise<{ feeds: Feed[]; nextCursor: string | null }> {
  const found = await feeds.listActive(db, accountId, { limit: page.limit, after: page.cursor })
  const shown = found.slice(0, page.limit)
  return { feeds: shown, nextCursor: found.length > page.limit ? (shown.at(-1)?.id ?? null) : null }
}

/** The feed behind a token, with its newest entries; undefined for a malformed, unknown or revoked one. */
export async function readFeed(
  deps: { db: Db; feeds: Feeds; runs: RunsToTell },
  token: string,
  options: { publicUrl: string },
): Promise<FeedContent | undefined> {
  if (!FEED_TOKEN.test(token)) return undefined
  const { db } = deps
  const found = await deps.feeds.findByTokenHash(db, sha256(token))
  if (!found) return undefined
  const { accountId, topicHash, ...feed } = found
  const runs = feed.seriesId
    ? await listSeriesFeedRuns(db, accountId, feed.seriesId, FEED_ENTRIES)
    : topicHash
      ? await listTopicFeedRuns(db, accountId, topicHash, FEED_ENTRIES)
      : []
  const finishedAt = new Map(runs.map((run) => [run.id, run.finished_at]))
  const reports = await deps.runs.reports(
    db,
    runs.map((run) => run.id),
    options,
  )
  const entries = reports.map(({ runId, report }) => ({ runId, finishedAt: finishedAt.get(runId) as Date, report }))
  return { ...feed, entries }
}

/**
 * What a run's end owes the feeds (a hook of server/runs/end.ts): a complete run's count of
 * new, updated and contradicted claims, and whether it was told, in the clear index feeds read.
 */
export function recordRunChangesWhenEnded(): RunEndHook<Db> {
  return async (trx, { runId, outcome, worthTelling }) => {
    if (outcome.status !== 'complete') return
    await insertRunChanges(trx, { run_id: runId, changes: changeCount(outcome.report), told: worthTelling })
  }
}

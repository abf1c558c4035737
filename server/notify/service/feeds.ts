// Feeds, as the surfaces ask for them: make one for a topic or a recurring brief (the URL, with its
// token, shown once), list and revoke them, and read one by its token (no login: the token is the key).

import type { Db } from '#db/database.ts'
import type { LockAccount } from '#server/notify/account-lock.ts'
import { type Feed, MAX_FEEDS_PER_ACCOUNT } from '#server/notify/contract.ts'
import { renderAtom } from '#server/notify/feeds/atom.ts'
import { createFeed, listFeeds, readFeed } from '#server/notify/feeds/feeds.ts'
import type { Feeds } from '#server/notify/repository/feeds.ts'
import type { RunsToTell } from '#server/notify/runs-to-tell.ts'
import { UUID } from '#server/text/uuid.ts'

/**
 * The account's series, as a feed follows it: its topic (undefined for no such series, or another
 * account's). Notify's port onto the series (decision 063): the composition root hands it over.
 */
export type FindSeries = (accountId: string, seriesId: string) => Promise<{ topic: string } | undefined>

/**
 * The account's topic, as a feed follows it: by name (any spelling) or by id, its id and name
 * (undefined for none, or another account's). Notify's port onto the topics module.
 */
export type FindTopic = (
  accountId: string,
  subject: { topic: string } | { topicId: string },
) => Promise<{ topicId: string; topic: string } | undefined>

export type FeedServiceDeps = {
  db: Db
  findSeries: FindSeries
  findTopic: FindTopic
  /** A feed's entries are runs' reports (the runs module's; a port). */
  runs: RunsToTell
  /** The feeds' rows, their sealed titles opened at the repository. */
  feeds: Feeds
  publicUrl: string
  /** Why nothing should be written now (the database's disk is full), as a run's start asks. */
  storageBlocked: () => Promise<string | undefined>
  /** Holds the account's row while its feeds are counted (the accounts module's; a port). */
  lockAccount: LockAccount
}

/** What a feed follows: a topic by name (any spelling) or by id (the dashboard's), or a series. */
export type FeedSubject = { topic: string } | { topicId: string } | { seriesId: string }

export type CreatedFeed = { feed: Feed; url: string }
export type FeedCreation =
  | ({ ok: true } & CreatedFeed)
  | { ok: false; reason: 'not_found' | 'limit' }
  | { ok: false; reason: 'unavailable'; message: string }

export function createFeedService(deps: FeedServiceDeps) {
  const { db } = deps
  const feedUrl = (token: string) => new URL(`/feeds/${token}.atom`, deps.publicUrl).toString()

  /** The subject, when it is the account's: its id and name. Another account's is none. */
  async function resolve(
    accountId: string,
    subject: FeedSubject,
  ): Promise<({ topic: string } & ({ topicId: string } | { seriesId: string })) | undefined> {
    if ('seriesId' in subject) {
      if (!UUID.test(subject.seriesId)) return undefined
      const series = await deps.findSeries(accountId, subject.seriesId)
      return series && { topic: series.topic, seriesId: subject.seriesId }
    }
    return deps.findTopic(accountId, subject)
  }

  return {
    /** A new feed and its URL (shown this once), or why not: no such topic or series, or the cap. */
    async create(accountId: string, subject: FeedSubject): Promise<FeedCreation> {
      const found = await resolve(accountId, subject)
      if (!found) return { ok: false, reason: 'not_found' }
      // A full disk: refused as a run's start is, before a row that could not be kept is written.
      const blocked = await deps.storageBlocked()
      if (blocked) return { ok: false, reason: 'unavailable', message: blocked }
      const created = await createFeed(
        { db, feeds: deps.feeds, lockAccount: deps.lockAccount },
        { accountId, ...found },
      )
      if (!created) return { ok: false, reason: 'limit' }
      return { ok: true, feed: created.feed, url: feedUrl(created.token) }
    },
    /** A page of the account's working feeds, newest first (by default all of them: the cap). */
    list: (accountId: string, page: { limit: number; cursor?: string } = { limit: MAX_FEEDS_PER_ACCOUNT }) =>
      listFeeds(db, deps.feeds, accountId, page),
    /** Revokes the feed at once; undefined when the account has no such working feed. */
    revoke: (accountId: string, feedId: string) => deps.feeds.revoke(db, accountId, feedId),
    /** The Atom document behind a token; undefined for a malformed, unknown or revoked token. */
    async atom(token: string): Promise<string | undefined> {
      const content = await readFeed({ db, runs: deps.runs, feeds: deps.feeds }, token, { publicUrl: deps.publicUrl })
      return content && renderAtom(content, { publicUrl: deps.publicUrl, selfUrl: feedUrl(token) })
    },
  }
}

export type FeedService = ReturnType<typeof createFeedService>

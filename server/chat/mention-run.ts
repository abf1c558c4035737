// A received mention, acted on once: in one transaction the receipt is marked handled, and either a
// run starts with its "researching" reply queued, or a notice says what was wrong (a bad brief, or a
// limit of the workspace, repository or account reached). A retried job finds
// the receipt handled and does nothing, so a mention never starts two runs.
import type { Db } from '#db/database.ts'
import { briefFromMention } from '#server/chat/mention.ts'
import type { Receipts } from '#server/chat/repository/receipts.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { Logger } from '#server/logger.ts'
import type { Brief } from '#server/vocabulary/brief.ts'
import type { ChatChannel, ChatReply, Destination } from '#server/vocabulary/notify.ts'

// What chat asks of notify (server/notify/service.ts gives both), declared here so that chat needs
// nothing of notify's but these two shapes.

/** What is said back: a reply queued in the caller's transaction. */
export type Replies = { queue: (trx: Db, reply: ChatReply) => Promise<void> }

/** Slack workspaces: which account one's mentions run as; linking one (the CLI) seals its bot token. */
export type SlackWorkspaces = {
  account: (db: Db, teamId: string) => Promise<{ accountId: string } | undefined>
  link: (db: Db, input: { teamId: string; accountId: string; botToken: string }) => Promise<void>
}

/**
 * What chat asks of the runs (server/runs/service.ts's start): a mention's run, admitted within the
 * place's and the account's limits and written in the caller's transaction.
 */
export type StartMentionRun = (input: {
  requester: { kind: 'mention'; accountId: string; place: string }
  brief: Brief
  account: { id: string }
  trx: Db
}) => Promise<
  { ok: true; run: { runId: string }; release: () => Promise<void> } | { ok: false; refusal: { message: string } }
>

export type MentionDeps = {
  db: Db
  jobs: Jobs
  startRun: StartMentionRun
  log: Logger
  receipts: Receipts
  replies: Replies
  workspaces: SlackWorkspaces
}

export async function actOnMention(
  deps: MentionDeps,
  input: {
    provider: ChatChannel
    deliveryId: string
    destination: Destination
    /** The workspace or repository the mention came from: mentions are limited per place. */
    place: string
    findAccount: (db: Db) => Promise<{ accountId: string } | undefined>
    /** What to reply when the workspace or repository is not linked; undefined when no reply is possible. */
    unlinkedNotice: string | undefined
  },
): Promise<void> {
  // Set once the run is admitted: if the transaction then fails, the quota it took is given back
  // (the job is retried, and admits again).
  let release: (() => Promise<void>) | undefined
  await deps.jobs
    .transaction(deps.db, async (trx): Promise<'started' | 'notice' | 'none'> => {
      // The mention's words after the app's name (topic and options), kept sealed until now.
      const claimed = await deps.receipts.claim(trx, input.provider, input.deliveryId)
      if (!claimed) return 'none'
      if (claimed.text === null) {
        // Received before its text was kept on the receipt (an upgrade in between): nothing to act on.
        deps.log.warn({ provider: input.provider, deliveryId: input.deliveryId }, 'a mention without its text')
        return 'none'
      }
      const notice = (text: string) =>
        deps.replies.queue(trx, {
          ...input.destination,
          runId: null,
          kind: 'notice',
          notice: text,
        })
      const account = await input.findAccount(trx)
      if (!account) {
        deps.log.warn({ provider: input.provider, destination: input.destination }, 'a mention from an unlinked place')
        if (!input.unlinkedNotice) return 'none'
        await notice(input.unlinkedNotice)
        return 'notice'
      }
      const parsed = briefFromMention(claimed.text, input.provider)
      if (!parsed.ok) {
        await notice(parsed.message)
        return 'notice'
      }
      const requester = { kind: 'mention', accountId: account.accountId, place: input.place } as const
      const started = await deps.startRun({ requester, brief: parsed.brief, account: { id: account.accountId }, trx })
      if (!started.ok) {
        await notice(`Sorry, I cannot start this research now. ${started.refusal.message}`)
        return 'notice'
      }
      release = started.release
      await deps.replies.queue(trx, {
        ...input.destination,
        runId: started.run.runId,
        kind: 'started',
      })
      return 'started'
    })
    .catch(async (error) => {
      await release?.().catch(() => {})
      throw error
    })
}

// GitHub issue_comment webhooks: a new comment on a pull request saying "@sextant research <topic>"
// is recorded once per X-GitHub-Delivery and handed to the `github.mention` job, which starts the run.
// The words after "research" wait sealed on the receipt (receipts.ts); the job holds only ids.
import type { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { IssueCommentEventSchema } from '#server/chat/contract.ts'
import { findGithubRepository } from '#server/chat/github/repositories.ts'
import { githubMentionText } from '#server/chat/mention.ts'
import { actOnMention, type MentionDeps } from '#server/chat/mention-run.ts'
import type { Receipts } from '#server/chat/repository/receipts.ts'
import type { WebhookOutcome } from '#server/chat/slack/events.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { GITHUB_MENTION, type GithubMentionJob } from '#server/jobs/queues.ts'

export async function receiveGithubComment(
  deps: { db: Db; jobs: Jobs; receipts: Receipts },
  deliveryId: string,
  event: z.infer<typeof IssueCommentEventSchema>,
): Promise<WebhookOutcome> {
  if (event.action !== 'created') return { status: 'ignored', reason: `comment ${event.action}` }
  if (!event.issue.pull_request) return { status: 'ignored', reason: 'not a pull request' }
  if (event.comment.user.type === 'Bot') return { status: 'ignored', reason: 'comment by a bot' }
  const text = githubMentionText(event.comment.body ?? '')
  if (text === undefined) return { status: 'ignored', reason: 'no "@sextant research" in the comment' }
  const job: GithubMentionJob = {
    deliveryId,
    repo: event.repository.full_name,
    issueNumber: event.issue.number,
  }
  const accepted = await deps.jobs.transaction(deps.db, async (trx) => {
    if (!(await deps.receipts.record(trx, 'github', deliveryId, text))) return false
    await deps.jobs.send(GITHUB_MENTION, job, { trx })
    return true
  })
  if (!accepted) return { status: 'duplicate' }
  return { status: 'accepted' }
}

export async function handleGithubMention(deps: MentionDeps, job: GithubMentionJob): Promise<void> {
  await actOnMention(deps, {
    provider: 'github',
    deliveryId: job.deliveryId,
    destination: { channel: 'github', target: { repo: job.repo, issueNumber: job.issueNumber } },
    place: `github:${job.repo.toLowerCase()}`,
    findAccount: (db) => findGithubRepository(db, job.repo),
    unlinkedNotice:
      'This repository is not linked to a Sextant account, so I cannot research for it. ' +
      `Whoever runs Sextant can link it with: npm run cli -- github link --repo ${job.repo} --email <account email>`,
  })
}

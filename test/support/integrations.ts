// What the Slack and GitHub tests read from the database: a run once it has ended, and how many
// runs, webhook receipts and deliveries exist (to show that a rejected request wrote nothing).
import { randomUUID } from 'node:crypto'
import type { Db } from '#db/database.ts'
import { signGithubPayload } from '#server/chat/github/verify.ts'
import { signSlackRequest } from '#server/chat/slack/verify.ts'

export async function waitForRunEnd(db: Db, runId: string) {
  for (let i = 0; i < 400; i++) {
    const run = await db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow()
    if (run.status !== 'running') return run
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`run ${runId} did not end`)
}

export async function integrationCounts(db: Db) {
  const count = async (table: 'runs' | 'webhook_receipts' | 'deliveries') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  return { runs: await count('runs'), receipts: await count('webhook_receipts'), deliveries: await count('deliveries') }
}

type Fetch = (path: string, init?: RequestInit) => Promise<Response>

/** POSTs a Slack event as Slack does: the raw JSON body, signed with the app's signing secret. */
export function postSignedSlackEvent(fetch: Fetch, secret: string, payload: object) {
  const raw = JSON.stringify(payload)
  const timestamp = Math.floor(Date.now() / 1000)
  return fetch('/api/webhooks/slack', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signSlackRequest(secret, timestamp, raw),
    },
    body: raw,
  })
}

/** POSTs a GitHub issue_comment event as GitHub does: the raw JSON body, signed with the webhook secret. */
export function postSignedGithubComment(fetch: Fetch, secret: string, payload: object) {
  const raw = JSON.stringify(payload)
  return fetch('/api/webhooks/github', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': signGithubPayload(secret, raw),
    },
    body: raw,
  })
}

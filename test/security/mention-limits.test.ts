// Slack and GitHub mentions start runs within limits: per workspace or repository, and per account
// across all its linked places. A refused mention starts nothing and is answered politely in its
// thread, saying when to try again.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { linkGithubRepository } from '#server/chat/github/repositories.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { postSignedGithubComment, postSignedSlackEvent } from '#test/support/integrations.ts'
import { type StubGithub, startStubGithub } from '#test/support/stub-github.ts'
import { type StubSlack, startStubSlack } from '#test/support/stub-slack.ts'

const SLACK_SECRET = 'slack-secret-for-mention-limits'
const GITHUB_SECRET = 'github-secret-for-mention-limits'
const BOT_TOKEN = `xoxb-1-2-${randomBytes(12).toString('hex')}`
const GITHUB_TOKEN = 'ghs_mentionlimits0123'
const TEAM = 'T0LIMITS'

let slack: StubSlack
let github: StubGithub
let app: TestApp
let accountId: string

beforeAll(async () => {
  slack = await startStubSlack({ tokens: [BOT_TOKEN] })
  github = await startStubGithub({ token: GITHUB_TOKEN })
  app = await startTestApp({
    env: {
      SLACK_SIGNING_SECRET: SLACK_SECRET,
      SLACK_API_URL: slack.apiUrl,
      GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
      GITHUB_TOKEN,
      GITHUB_API_URL: github.url,
      RATE_LIMIT_MENTIONS_PER_HOUR: '2',
      RATE_LIMIT_MENTIONS_PER_ACCOUNT_PER_HOUR: '3',
      RUN_DEADLINE_QUICK_SECONDS: '20',
    },
  })
  accountId = (await createTestAccount(app.db)).account.id
  await createSlackWorkspaces(() => app.ring).link(app.db, { teamId: TEAM, accountId, botToken: BOT_TOKEN })
  await linkGithubRepository(app.db, { repo: 'acme/one', accountId })
  await linkGithubRepository(app.db, { repo: 'acme/two', accountId })
})
afterAll(async () => {
  await app.stop()
  await slack.close()
  await github.close()
})

let clock = 1_763_100_000
/** Mentions the app in a new thread; resolves with the first reply there. */
async function mentionInSlack(text: string) {
  clock += 1
  const ts = `${clock}.000100`
  const response = await postSignedSlackEvent(app.fetch, SLACK_SECRET, {
    type: 'event_callback',
    team_id: TEAM,
    api_app_id: 'A0LIMITS',
    event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: clock,
    event: { type: 'app_mention', user: 'U0ADA', text: `<@U0BOT> ${text}`, ts, channel: 'C0LIMITS', event_ts: ts },
  })
  expect(await response.json()).toEqual({ status: 'accepted' })
  const [reply] = await slack.waitForThread(ts, 1)
  return reply?.text ?? ''
}

let pr = 100
/** "@sextant research ..." on a new pull request; resolves with the first comment Sextant posts. */
async function mentionOnGithub(repo: string, text: string) {
  pr += 1
  const response = await postSignedGithubComment(app.fetch, GITHUB_SECRET, {
    action: 'created',
    issue: { number: pr, title: 'A change', pull_request: { url: `https://api.github.com/repos/${repo}/pulls/${pr}` } },
    comment: { id: pr, body: `@sextant research ${text}`, user: { login: 'ada', type: 'User' } },
    repository: { full_name: repo, name: repo.split('/')[1], owner: { login: repo.split('/')[0] } },
    sender: { login: 'ada', type: 'User' },
  })
  expect(await response.json()).toEqual({ status: 'accepted' })
  const [comment] = await github.waitForComments(repo, pr, 1)
  return comment?.body ?? ''
}

async function runCount() {
  const rows = await app.db.selectFrom('runs').select('id').where('account_id', '=', accountId).execute()
  return rows.length
}

test('per workspace, then per account: refused mentions start nothing and are told when to try again', {
  timeout: 90_000,
}, async () => {
  expect(await mentionInSlack('tidal power depth:quick')).toMatch(/Researching/)
  expect(await mentionInSlack('wave power depth:quick')).toMatch(/Researching/)
  const refused = await mentionInSlack('geothermal depth:quick')
  expect(refused).toMatch(
    /^Sorry, I cannot start this research now\. A Slack workspace or GitHub repository can start 2 research runs per hour\. Try again in \d+ minutes?\.$/,
  )
  expect(await runCount()).toBe(2)

  // A repository of the same account has its own place allowance, but the account's is shared.
  expect(await mentionOnGithub('acme/one', 'solar depth:quick')).toMatch(/Researching/)
  const overAccount = await mentionOnGithub('acme/two', 'wind depth:quick')
  expect(overAccount).toMatch(
    /^Sorry, I cannot start this research now\. The Slack workspaces and GitHub repositories of one account can start 3 research runs per hour together\. Try again in/,
  )
  expect(await runCount()).toBe(3)
})

// `slack link` and `github link`: which account a Slack workspace's mentions, or a repository's
// "@sextant research" comments, run as. The Slack bot token is read from stdin (not an argument, which
// would sit in shell history and the process list) and stored sealed with the memory key ring.

import type { Db } from '#db/database.ts'
import { findAccountByEmail } from '#server/auth/accounts.ts'
import { CliError, type Command } from '#server/cli/command.ts'
import { REPO_NAME } from '#server/integrations/github/events.ts'
import { linkGithubRepository } from '#server/integrations/github/repositories.ts'
import { linkSlackWorkspace } from '#server/integrations/slack/workspaces.ts'
import { loadKeyRing } from '#server/memory/crypto.ts'

const TEAM_ID = /^[TE][A-Z0-9]{2,20}$/
const BOT_TOKEN = /^xoxb-[A-Za-z0-9-]{10,250}$/

async function requireAccountId(db: Db, email: string): Promise<string> {
  const account = await findAccountByEmail(db, email)
  if (!account) {
    throw new CliError(
      `No account has the email ${email}. Create it with: npm run cli -- accounts create --email ${email}`,
    )
  }
  return account.id
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Paste the bot token (xoxb-...), then Enter: ')
  let text = ''
  for await (const chunk of process.stdin) {
    text += chunk
    if (process.stdin.isTTY && text.includes('\n')) break
  }
  return text.trim()
}

export const integrationCommands: Record<string, Command> = {
  'slack link': {
    summary: "map a Slack workspace (team id) to an account; reads the app's bot token from stdin",
    options: { team: 'required', email: 'required' },
    async run({ db, config, log, values }) {
      const teamId = values.team ?? ''
      if (!TEAM_ID.test(teamId)) throw new CliError(`--team must be a Slack team id like T0123ABCD (got "${teamId}").`)
      const accountId = await requireAccountId(db, values.email ?? '')
      const botToken = await readStdin()
      if (!BOT_TOKEN.test(botToken)) {
        throw new CliError(
          'Pipe the Slack bot token (xoxb-...) on stdin, e.g.: printf %s "$SLACK_BOT_TOKEN" | npm run cli -- slack link ...',
        )
      }
      await linkSlackWorkspace(db, loadKeyRing(config, log), { teamId, accountId, botToken })
      console.log(`Linked Slack workspace ${teamId} to ${values.email}: mentions of the app there start runs for it.`)
      console.log('The bot token is stored encrypted with MEMORY_ENCRYPTION_KEYS.')
    },
  },
  'github link': {
    summary: 'map a GitHub repository (owner/name) to an account',
    options: { repo: 'required', email: 'required' },
    async run({ db, values }) {
      const repo = values.repo ?? ''
      if (!REPO_NAME.test(repo)) throw new CliError(`--repo must be owner/name (got "${repo}").`)
      const accountId = await requireAccountId(db, values.email ?? '')
      await linkGithubRepository(db, { repo, accountId })
      console.log(
        `Linked GitHub repository ${repo} to ${values.email}: "@sextant research" on its pull requests starts runs for it.`,
      )
    },
  },
}

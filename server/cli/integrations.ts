// `slack link` and `github link`: which account a Slack workspace's mentions, or a repository's
// "@sextant research" comments, run as. The Slack bot token is read from stdin (not an argument, which
// would sit in shell history and the process list) and stored sealed with the memory key ring.

import { REPO_NAME } from '#server/chat/contract.ts'
import { requireAccount } from '#server/cli/accounts.ts'
import { CliError, type Command } from '#server/cli/command.ts'

const TEAM_ID = /^[TE][A-Z0-9]{2,20}$/
const BOT_TOKEN = /^xoxb-[A-Za-z0-9-]{10,250}$/

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
    async run({ services, values }) {
      const teamId = values.team ?? ''
      if (!TEAM_ID.test(teamId)) throw new CliError(`--team must be a Slack team id like T0123ABCD (got "${teamId}").`)
      const { id: accountId } = await requireAccount(services, values.email ?? '')
      const botToken = await readStdin()
      if (!BOT_TOKEN.test(botToken)) {
        throw new CliError(
          'Pipe the Slack bot token (xoxb-...) on stdin, e.g.: printf %s "$SLACK_BOT_TOKEN" | npm run cli -- slack link ...',
        )
      }
      await services.chatLinks.linkSlackWorkspace({ teamId, accountId, botToken })
      console.log(`Linked Slack workspace ${teamId} to ${values.email}: mentions of the app there start runs for it.`)
      console.log('The bot token is stored encrypted with MEMORY_ENCRYPTION_KEYS.')
    },
  },
  'github link': {
    summary: 'map a GitHub repository (owner/name) to an account',
    options: { repo: 'required', email: 'required' },
    async run({ services, values }) {
      const repo = values.repo ?? ''
      if (!REPO_NAME.test(repo)) throw new CliError(`--repo must be owner/name (got "${repo}").`)
      const { id: accountId } = await requireAccount(services, values.email ?? '')
      await services.chatLinks.linkGithubRepository({ repo, accountId })
      console.log(
        `Linked GitHub repository ${repo} to ${values.email}: "@sextant research" on its pull requests starts runs for it.`,
      )
    },
  },
}

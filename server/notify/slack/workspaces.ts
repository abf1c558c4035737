// Which account a Slack workspace's mentions run as, and the bot token that answers there. The token
// is sealed with the memory key ring, bound to its team id: it never sits in the clear, and a sealed
// token copied to another workspace's row does not open. The SQL is server/notify/repository/slack-workspaces.ts's.
import type { Db } from '#db/database.ts'
import { type KeyRing, open, seal } from '#server/memory/crypto.ts'
import { findSlackWorkspaceRow, upsertSlackWorkspace } from '#server/notify/repository/slack-workspaces.ts'

const tokenData = (teamId: string) => `slack_bot_token:${teamId}`

export async function linkSlackWorkspace(
  db: Db,
  ring: KeyRing,
  input: { teamId: string; accountId: string; botToken: string },
): Promise<void> {
  const sealed = seal(ring, Buffer.from(input.botToken), tokenData(input.teamId))
  await upsertSlackWorkspace(db, {
    team_id: input.teamId,
    account_id: input.accountId,
    bot_token_key_id: sealed.keyId,
    bot_token: sealed.ciphertext,
  })
}

export async function findSlackWorkspace(db: Db, teamId: string): Promise<{ accountId: string } | undefined> {
  const row = await findSlackWorkspaceRow(db, teamId)
  return row && { accountId: row.account_id }
}

/** The workspace's bot token; undefined when the workspace is not linked. Throws if it cannot be opened. */
export async function slackBotToken(db: Db, ring: KeyRing, teamId: string): Promise<string | undefined> {
  const row = await findSlackWorkspaceRow(db, teamId)
  if (!row) return undefined
  return open(ring, { keyId: row.bot_token_key_id, ciphertext: row.bot_token }, tokenData(teamId)).toString('utf8')
}

// Which account a Slack workspace's mentions run as, and the bot token that answers there. The token
// is sealed with the memory key ring, bound to its team id: it never sits in the clear, and a sealed
// token copied to another workspace's row does not open.
import type { Db } from '#db/database.ts'
import { type KeyRing, open, seal } from '#server/memory/crypto.ts'

const tokenData = (teamId: string) => `slack_bot_token:${teamId}`

export async function linkSlackWorkspace(
  db: Db,
  ring: KeyRing,
  input: { teamId: string; accountId: string; botToken: string },
): Promise<void> {
  const sealed = seal(ring, Buffer.from(input.botToken), tokenData(input.teamId))
  const values = { account_id: input.accountId, bot_token_key_id: sealed.keyId, bot_token: sealed.ciphertext }
  await db
    .insertInto('slack_workspaces')
    .values({ team_id: input.teamId, ...values })
    .onConflict((conflict) => conflict.column('team_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute()
}

export async function findSlackWorkspace(db: Db, teamId: string): Promise<{ accountId: string } | undefined> {
  const row = await db
    .selectFrom('slack_workspaces')
    .select('account_id')
    .where('team_id', '=', teamId)
    .executeTakeFirst()
  return row && { accountId: row.account_id }
}

/** The workspace's bot token; undefined when the workspace is not linked. Throws if it cannot be opened. */
export async function slackBotToken(db: Db, ring: KeyRing, teamId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('slack_workspaces')
    .select(['bot_token_key_id', 'bot_token'])
    .where('team_id', '=', teamId)
    .executeTakeFirst()
  if (!row) return undefined
  return open(ring, { keyId: row.bot_token_key_id, ciphertext: row.bot_token }, tokenData(teamId)).toString('utf8')
}

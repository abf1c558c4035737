// The slack_workspaces table: which account a Slack workspace's mentions run as, and the bot token
// that answers there. The token is sealed, bound to its team id: it never sits in the clear, and a
// sealed token copied to another workspace's row does not open. The database (or the caller's
// transaction) first; the token comes and goes opened (decision 064).
import type { Db } from '#db/database.ts'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { type SealedColumn, sealedText } from '#server/crypto/sealed-column.ts'

/** What binds a workspace's sealed bot token to its row. */
export const botTokenData = (teamId: string) => `slack_bot_token:${teamId}`

/**
 * The table's statements. The key ring is loaded only when a token is sealed or opened: loading it
 * may write a new key file, or fail in production without MEMORY_ENCRYPTION_KEYS, and the CLI links
 * a GitHub repository without one.
 */
export function createSlackWorkspaces(ring: () => KeyRing) {
  let codec: SealedColumn<string, [teamId: string]> | undefined
  const botToken = () => {
    codec ??= sealedText(ring(), { name: 'slack_workspaces.bot_token', associatedData: botTokenData })
    return codec
  }
  return {
    /** Links a workspace to an account (again: replaces the account and token); the bot token is sealed. */
    async link(db: Db, input: { teamId: string; accountId: string; botToken: string }): Promise<void> {
      const sealed = botToken().seal(input.botToken, input.teamId)
      const values = { account_id: input.accountId, bot_token_key_id: sealed.keyId, bot_token: sealed.ciphertext }
      await db
        .insertInto('slack_workspaces')
        .values({ team_id: input.teamId, ...values })
        .onConflict((conflict) => conflict.column('team_id').doUpdateSet({ ...values, updated_at: new Date() }))
        .execute()
    },

    /** The account the workspace's mentions run as; undefined when it is not linked. */
    async account(db: Db, teamId: string): Promise<{ accountId: string } | undefined> {
      const row = await db
        .selectFrom('slack_workspaces')
        .select('account_id')
        .where('team_id', '=', teamId)
        .executeTakeFirst()
      return row && { accountId: row.account_id }
    },

    /** The workspace's bot token; undefined when it is not linked. Throws if it cannot be opened. */
    async botToken(db: Db, teamId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('slack_workspaces')
        .select(['bot_token_key_id', 'bot_token'])
        .where('team_id', '=', teamId)
        .executeTakeFirst()
      return row && botToken().open({ keyId: row.bot_token_key_id, ciphertext: row.bot_token }, teamId)
    },
  }
}

export type SlackWorkspaces = ReturnType<typeof createSlackWorkspaces>

// The slack_workspaces table: SQL only, the database (or the caller's transaction) first. The bot
// token is stored sealed; sealing and opening it is server/notify/slack/workspaces.ts's.
import type { Insertable, Selectable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { SlackWorkspacesTable } from '#db/schema.ts'

export type SlackWorkspaceRow = Selectable<SlackWorkspacesTable>

/** Inserts the workspace, or moves an existing one to this account and token. */
export async function upsertSlackWorkspace(
  db: Db,
  values: Omit<Insertable<SlackWorkspacesTable>, 'created_at' | 'updated_at'>,
): Promise<void> {
  const { team_id: _teamId, ...update } = values
  await db
    .insertInto('slack_workspaces')
    .values(values)
    .onConflict((conflict) => conflict.column('team_id').doUpdateSet({ ...update, updated_at: new Date() }))
    .execute()
}

export async function findSlackWorkspaceRow(
  db: Db,
  teamId: string,
): Promise<Pick<SlackWorkspaceRow, 'account_id' | 'bot_token_key_id' | 'bot_token'> | undefined> {
  return db
    .selectFrom('slack_workspaces')
    .select(['account_id', 'bot_token_key_id', 'bot_token'])
    .where('team_id', '=', teamId)
    .executeTakeFirst()
}

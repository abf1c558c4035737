// The github_repositories table: SQL only, the database (or the caller's transaction) first. How a
// repository's name becomes its key is server/chat/github/repositories.ts's.
import type { Insertable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { GithubRepositoriesTable } from '#db/schema.ts'

/** Inserts the repository, or moves an existing key to this name and account. */
export async function upsertGithubRepository(
  db: Db,
  values: Omit<Insertable<GithubRepositoriesTable>, 'created_at'>,
): Promise<void> {
  await db
    .insertInto('github_repositories')
    .values(values)
    .onConflict((conflict) =>
      conflict.column('repo_key').doUpdateSet({ repo: values.repo, account_id: values.account_id }),
    )
    .execute()
}

/** The account the repository is linked to, by its key. */
export async function findGithubRepositoryAccountId(db: Db, repoKey: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('github_repositories')
    .select('account_id')
    .where('repo_key', '=', repoKey)
    .executeTakeFirst()
  return row?.account_id
}

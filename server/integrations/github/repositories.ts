// Which account a GitHub repository's "@sextant research" comments run as. GitHub compares owner and
// repository names without case, so the key is lower-cased; the name as given is kept for display.
import type { Db } from '#db/database.ts'

export async function linkGithubRepository(db: Db, input: { repo: string; accountId: string }): Promise<void> {
  await db
    .insertInto('github_repositories')
    .values({ repo_key: input.repo.toLowerCase(), repo: input.repo, account_id: input.accountId })
    .onConflict((conflict) =>
      conflict.column('repo_key').doUpdateSet({ repo: input.repo, account_id: input.accountId }),
    )
    .execute()
}

export async function findGithubRepository(db: Db, repo: string): Promise<{ accountId: string } | undefined> {
  const row = await db
    .selectFrom('github_repositories')
    .select('account_id')
    .where('repo_key', '=', repo.toLowerCase())
    .executeTakeFirst()
  return row && { accountId: row.account_id }
}

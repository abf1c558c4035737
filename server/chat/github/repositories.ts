// Which account a GitHub repository's "@sextant research" comments run as. GitHub compares owner and
// repository names without case, so the key is lower-cased; the name as given is kept for display.
// The SQL is server/chat/repository/github-repositories.ts's.
import type { Db } from '#db/database.ts'
import { findGithubRepositoryAccountId, upsertGithubRepository } from '#server/chat/repository/github-repositories.ts'

export async function linkGithubRepository(db: Db, input: { repo: string; accountId: string }): Promise<void> {
  await upsertGithubRepository(db, {
    repo_key: input.repo.toLowerCase(),
    repo: input.repo,
    account_id: input.accountId,
  })
}

export async function findGithubRepository(db: Db, repo: string): Promise<{ accountId: string } | undefined> {
  const accountId = await findGithubRepositoryAccountId(db, repo.toLowerCase())
  return accountId === undefined ? undefined : { accountId }
}

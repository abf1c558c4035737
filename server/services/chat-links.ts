// Which account a Slack workspace's mentions, or a GitHub repository's "@sextant research" comments,
// run as: the operator links them (the CLI's `slack link` and `github link`).
import type { Db } from '#db/database.ts'
import { linkGithubRepository } from '#server/chat/github/repositories.ts'
import type { KeyRing } from '#server/memory/crypto.ts'
import { linkSlackWorkspace } from '#server/notify/slack/workspaces.ts'

export type ChatLinkServiceDeps = {
  db: Db
  /**
   * The memory key ring, loaded only when a bot token is sealed: loading it may write a new key
   * file, or fail in production without MEMORY_ENCRYPTION_KEYS, and linking a repository seals nothing.
   */
  ring: () => KeyRing
}

export function createChatLinkService(deps: ChatLinkServiceDeps) {
  const { db } = deps
  return {
    /** Links a workspace to an account (again: replaces the account and token); the bot token is sealed. */
    linkSlackWorkspace: (input: { teamId: string; accountId: string; botToken: string }): Promise<void> =>
      linkSlackWorkspace(db, deps.ring(), input),
    linkGithubRepository: (input: { repo: string; accountId: string }): Promise<void> =>
      linkGithubRepository(db, input),
  }
}

export type ChatLinkService = ReturnType<typeof createChatLinkService>

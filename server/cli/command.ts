// What a CLI command declares, what it is given, and the error that ends one with a message instead
// of a stack trace.

import type { AccountService, KeyService } from '#server/accounts/service.ts'
import type { ChatLinkService } from '#server/chat/service.ts'
import type { CorpusService } from '#server/services/operations.ts'

export type CommandLine = { values: Record<string, string | undefined>; positionals: string[] }

export type CommandShape = {
  summary: string
  /** String options by name (`--email <email>`); a missing required one is a usage error. */
  options?: Record<string, 'required' | 'optional'>
  /** Names of the positional arguments, all required (`<prefix>`). */
  positionals?: string[]
}

/** The services the CLI's commands call, composed by server/cli.ts over the database it opened. */
export type CliServices = {
  accounts: AccountService
  keys: KeyService
  corpus: CorpusService
  chatLinks: ChatLinkService
}

/** Most commands work on the app's data through its services; `database: false` ones (key generation) need none. */
export type Command =
  | (CommandShape & {
      database?: true
      run: (context: CommandLine & { services: CliServices }) => Promise<void>
    })
  | (CommandShape & { database: false; run: (context: CommandLine) => Promise<void> })

/** A failure the user can fix. Code 1: the input was wrong; code 2: the command line was (usage follows). */
export class CliError extends Error {
  code: 1 | 2

  constructor(message: string, code: 1 | 2 = 1) {
    super(message)
    this.name = 'CliError'
    this.code = code
  }
}

// What a CLI command declares, and the error that ends one with a message instead of a stack trace.
import type { Db } from '#db/database.ts'
import type { Config } from '#server/config.ts'
import type { Logger } from '#server/logger.ts'

type CommandLine = { values: Record<string, string | undefined>; positionals: string[] }

type CommandShape = {
  summary: string
  /** String options by name (`--email <email>`); a missing required one is a usage error. */
  options?: Record<string, 'required' | 'optional'>
  /** Names of the positional arguments, all required (`<prefix>`). */
  positionals?: string[]
}

/** Most commands work on the app's database; `database: false` ones (key generation) need none. */
export type Command =
  | (CommandShape & {
      database?: true
      run: (context: CommandLine & { db: Db; config: Config; log: Logger }) => Promise<void>
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

// What a CLI command declares, and the error that ends one with a message instead of a stack trace.
import type { Db } from '#db/database.ts'

export type Command = {
  summary: string
  /** String options by name (`--email <email>`); a missing required one is a usage error. */
  options?: Record<string, 'required' | 'optional'>
  /** Names of the positional arguments, all required (`<prefix>`). */
  positionals?: string[]
  run: (context: { db: Db; values: Record<string, string | undefined>; positionals: string[] }) => Promise<void>
}

/** A failure the user can fix. Code 1: the input was wrong; code 2: the command line was (usage follows). */
export class CliError extends Error {
  code: 1 | 2

  constructor(message: string, code: 1 | 2 = 1) {
    super(message)
    this.name = 'CliError'
    this.code = code
  }
}

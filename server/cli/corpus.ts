// `corpus index <dir>`: loads a folder of markdown and text files into the local search corpus,
// searched when SEARCH_PROVIDER is corpus, and by the open sources when the machine is offline.
import fs from 'node:fs/promises'
import path from 'node:path'
import { CliError, type Command } from '#server/cli/command.ts'

export const corpusCommands: Record<string, Command> = {
  'corpus index': {
    summary: 'index the .md and .txt files under a folder into the local search corpus (re-run to update)',
    positionals: ['dir'],
    async run({ services, positionals: [dir = ''] }) {
      const absolute = path.resolve(dir)
      const stat = await fs.stat(absolute).catch(() => undefined)
      if (!stat?.isDirectory()) throw new CliError(`${dir} is not a folder.`)
      const { indexed, skipped } = await services.corpus.index(absolute)
      console.log(`Indexed ${indexed} ${indexed === 1 ? 'document' : 'documents'} from ${dir}.`)
      if (!skipped.length) return
      console.log(`Skipped ${skipped.length} ${skipped.length === 1 ? 'file' : 'files'}:`)
      for (const { file, reason } of skipped) console.log(`  ${file}: ${reason}`)
    },
  },
}

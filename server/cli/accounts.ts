// `accounts` and `keys` commands, for the operator at a shell: make an account and its API keys on a
// server where nobody can sign in yet, and revoke a leaked key. Secrets are printed once, never read back.
import { z } from 'zod'
import { type Account, type ApiKeySummary, EmailTakenError, KEY_CACHE_TTL_MS } from '#server/accounts/contract.ts'
import { CliError, type CliServices, type Command } from '#server/cli/command.ts'
import { randomString } from '#server/crypto/secrets.ts'

const NewAccountSchema = z.object({
  email: z.email('must be an email address'),
  password: z.string().min(8, 'must be at least 8 characters').optional(),
})

// The same limits as POST /api/keys.
const NewKeySchema = z.object({
  email: z.string(),
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
})

function parseOptions<T>(schema: z.ZodType<T>, values: unknown): T {
  const result = schema.safeParse(values)
  if (result.success) return result.data
  throw new CliError(result.error.issues.map((issue) => `--${issue.path.join('.')} ${issue.message}.`).join('\n'))
}

/** The account with this email; a CliError that says how to create it when there is none. */
export async function requireAccount(services: CliServices, email: string): Promise<Account> {
  const account = await services.accounts.findByEmail(email)
  if (account) return account
  throw new CliError(
    `No account has the email ${email}. Create it with: npm run cli -- accounts create --email ${email}`,
  )
}

function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

function formatKeyTable(keys: ApiKeySummary[]): string {
  const rows = [
    ['PREFIX', 'NAME', 'KIND', 'CREATED', 'LAST USED', 'STATUS'],
    ...keys.map((key) => [
      key.prefix,
      key.name,
      key.kind,
      formatTime(key.createdAt),
      key.lastUsedAt ? formatTime(key.lastUsedAt) : 'never',
      key.revokedAt ? `revoked ${formatTime(key.revokedAt)}` : 'active',
    ]),
  ]
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? []
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

export const accountCommands: Record<string, Command> = {
  'accounts create': {
    summary: 'create an account (without --password, one is generated)',
    options: { email: 'required', password: 'optional' },
    async run({ services, values }) {
      const input = parseOptions(NewAccountSchema, values)
      const password = input.password ?? randomString(20)
      const account = await services.accounts.create({ email: input.email, password }).catch((error: unknown) => {
        throw error instanceof EmailTakenError ? new CliError(error.message) : error
      })
      console.log(`Created account ${account.email}.`)
      if (!input.password) console.log(`Password: ${password}\nThis password is shown once: store it now.`)
    },
  },
  'keys create': {
    summary: "create an API key for an account's owner to use",
    options: { email: 'required', name: 'required' },
    async run({ services, values }) {
      const input = parseOptions(NewKeySchema, values)
      const account = await requireAccount(services, input.email)
      if (account.kind === 'demo') {
        throw new CliError('The demo account has one key, set by DEMO_KEY (or generated at first start).')
      }
      const { key } = await services.keys.createUnlimited(account.id, input.name)
      console.log(`Created API key "${input.name}" for ${account.email}:\n\n  ${key}\n`)
      console.log('Store it now: it will not be shown again.')
    },
  },
  'keys list': {
    summary: "list an account's API keys (no secrets)",
    options: { email: 'required' },
    async run({ services, values }) {
      const account = await requireAccount(services, values.email ?? '')
      const keys = await services.keys.list(account.id)
      console.log(keys.length ? formatKeyTable(keys) : `${account.email} has no API keys.`)
    },
  },
  'keys revoke': {
    summary: 'revoke the API key with this prefix',
    positionals: ['prefix'],
    async run({ services, positionals: [prefix = ''] }) {
      const revoked = await services.keys.revoke(prefix)
      if (!revoked) throw new CliError(`No active API key has the prefix "${prefix}" (unknown, or already revoked).`)
      console.log(`Revoked API key ${revoked.prefix} ("${revoked.name}").`)
      // Apps hear of it through NOTIFY (stream-principals.ts); one not listening then keeps its cached
      // verification for at most KEY_CACHE_TTL_MS.
      console.log(
        `Running apps stop accepting it and close its event streams now (one that was reconnecting to the database, within ${KEY_CACHE_TTL_MS / 1000} seconds).`,
      )
    },
  },
}

import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { expect, test, vi } from 'vitest'
import { authenticateWithPassword, createAccount } from '#server/accounts/accounts.ts'
import { createApiKeyVerifier, parseApiKey } from '#server/accounts/api-keys.ts'
import { findGithubRepository } from '#server/chat/github/repositories.ts'
import { parseKeyRing } from '#server/crypto/key-ring.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import { TEST_MEMORY_KEYS } from '#test/support/app.ts'
import { createDatabase, createTestDatabase, dumpAllTables } from '#test/support/database.ts'
import { PROCESS_TEST_BUDGET_MS, runCli } from '#test/support/process.ts'

// Each test runs the CLI as a real process, up to six times: a budget, not a clock. The Slack and
// GitHub test ran past 30 s once beside two CPU-bound processes and a fuzz run (issue 41, item 2).
vi.setConfig({ testTimeout: PROCESS_TEST_BUDGET_MS })

test('db status lists pending migrations and db migrate applies them', async () => {
  const database = await createDatabase('template0')
  try {
    const before = await runCli(['db', 'status'], { DATABASE_URL: database.url })
    expect(before).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Pending: \d{14}_settings/) })

    const migrate = await runCli(['db', 'migrate'], { DATABASE_URL: database.url })
    expect(migrate).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Applied \d+: /) })

    const after = await runCli(['db', 'status'], { DATABASE_URL: database.url })
    expect(after.stdout).toBe('Up to date: no pending migrations.\n')
  } finally {
    await database.drop()
  }
})

test('an unknown command prints usage and exits 2', async () => {
  const result = await runCli(['frobnicate', 'now'], {})
  expect(result.code).toBe(2)
  expect(result.stderr).toContain('Unknown command "frobnicate now"')
  expect(result.stderr).toContain('db migrate')
})

test('--help (and help) prints usage on stdout and exits 0, for one command when it is named', async () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const result = await runCli(args, {})
    expect(result, args.join(' ')).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toMatch(/^Usage: npm run cli -- <command>/)
    expect(result.stdout).toContain('keys create')
  }
  const one = await runCli(['accounts', 'create', '--help'], {})
  expect(one).toMatchObject({ code: 0, stderr: '' })
  expect(one.stdout).toMatch(/^Usage: npm run cli -- accounts create --email <email>/)
})

test('accounts create prints a generated password that signs in, once per email', async () => {
  const database = await createTestDatabase()
  try {
    const env = { DATABASE_URL: database.url }
    const created = await runCli(['accounts', 'create', '--email', 'ada@example.com'], env)
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining('shown once') })
    const password = /^Password: (\S+)$/m.exec(created.stdout)?.[1] ?? ''
    expect(password).toHaveLength(20)
    expect(await authenticateWithPassword(database.db, 'ada@example.com', password)).toMatchObject({
      email: 'ada@example.com',
    })

    const duplicate = await runCli(
      ['accounts', 'create', '--email', 'ADA@example.com', '--password', 'long enough'],
      env,
    )
    expect(duplicate).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('already exists') })
    expect(duplicate.stderr).not.toContain('    at ')

    const badEmail = await runCli(['accounts', 'create', '--email', 'not-an-email'], env)
    expect(badEmail).toMatchObject({ code: 1, stderr: '--email must be an email address.\n' })
  } finally {
    await database.drop()
  }
})

test('keys create prints a working key; list shows it without its secret; revoke stops it', async () => {
  const database = await createTestDatabase()
  try {
    const env = { DATABASE_URL: database.url }
    const account = await createAccount(database.db, { email: 'grace@example.com', password: 'a password' })

    const created = await runCli(['keys', 'create', '--email', 'grace@example.com', '--name', 'laptop'], env)
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining('will not be shown again') })
    const key = /sx_[a-z0-9]{8}_[A-Za-z0-9]{32}/.exec(created.stdout)?.[0] ?? ''
    const { prefix, secret } = parseApiKey(key) ?? { prefix: 'none', secret: 'none' }
    expect(await createApiKeyVerifier(database.db).verify(key)).toMatchObject({ accountId: account.id })

    const listed = await runCli(['keys', 'list', '--email', 'grace@example.com'], env)
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(new RegExp(`^${prefix} +laptop +standard .+ active$`, 'm'))
    expect(listed.stdout).not.toContain(secret)

    const revoked = await runCli(['keys', 'revoke', prefix], env)
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`Revoked API key ${prefix}`) })
    expect(revoked.stdout).toContain('10 seconds')
    expect(await createApiKeyVerifier(database.db).verify(key)).toBeUndefined()
    const afterRevoke = await runCli(['keys', 'list', '--email', 'grace@example.com'], env)
    expect(afterRevoke.stdout).toMatch(new RegExp(`^${prefix} .+ revoked \\d{4}-\\d{2}-\\d{2} `, 'm'))

    const again = await runCli(['keys', 'revoke', prefix], env)
    expect(again).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`No active API key has the prefix "${prefix}"`),
    })
  } finally {
    await database.drop()
  }
})

test('keys commands refuse unknown accounts and prefixes, and bad command lines', async () => {
  const database = await createTestDatabase()
  try {
    const env = { DATABASE_URL: database.url }
    const unknownAccount = await runCli(['keys', 'create', '--email', 'nobody@example.com', '--name', 'x'], env)
    expect(unknownAccount).toMatchObject({ code: 1, stderr: expect.stringContaining('No account has the email') })

    const unknownPrefix = await runCli(['keys', 'revoke', 'zzzzzzzz'], env)
    expect(unknownPrefix).toMatchObject({ code: 1, stderr: expect.stringContaining('"zzzzzzzz"') })

    const unknownFlag = await runCli(['keys', 'list', '--email', 'a@example.com', '--all'], env)
    expect(unknownFlag).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--all'") })
    expect(unknownFlag.stderr).toContain('keys create --email <email> --name <name>')

    const noName = await runCli(['keys', 'create', '--email', 'a@example.com'], env)
    expect(noName).toMatchObject({ code: 2, stderr: expect.stringContaining('missing --name') })
  } finally {
    await database.drop()
  }
})

test('memory keygen prints a key ring entry the app accepts, without touching a database', async () => {
  const result = await runCli(['memory', 'keygen'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })
  expect(result.code).toBe(0)
  const spec = result.stdout.split('\n')[0] as string
  expect(parseKeyRing(spec).keys.size).toBe(1)
})

test('corpus index loads a folder, lists the files it skipped and why, and refuses a missing folder', async () => {
  const database = await createTestDatabase()
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sextant-cli-corpus-'))
  try {
    await fs.writeFile(path.join(dir, 'tides.md'), '---\npublished: 2026-11-02\n---\n# Tidal power\n\nTurbines spin.')
    await fs.writeFile(path.join(dir, 'broken.md'), '---\nurl: not a url\n---\nText.')
    const env = { DATABASE_URL: database.url }

    const result = await runCli(['corpus', 'index', dir], env)
    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toBe(
      `Indexed 1 document from ${dir}.\nSkipped 1 file:\n  broken.md: bad front matter (url: must be an http(s) URL)\n`,
    )
    const rows = await database.db.selectFrom('corpus_documents').select(['url', 'title']).execute()
    expect(rows).toEqual([{ url: 'https://corpus.local/tides', title: 'Tidal power' }])

    const missing = await runCli(['corpus', 'index', path.join(dir, 'nope')], env)
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('is not a folder') })
  } finally {
    await database.drop()
    await fs.rm(dir, { recursive: true, force: true })
  }
})

test('slack link seals the bot token read from stdin; github link maps a repository; both check their input', async () => {
  const database = await createTestDatabase()
  try {
    const env = { DATABASE_URL: database.url, MEMORY_ENCRYPTION_KEYS: TEST_MEMORY_KEYS }
    const account = await createAccount(database.db, { email: 'ops@example.com', password: 'a password' })
    const token = 'xoxb-1234-5678-abcdefABCDEF0123'
    const slack = ['slack', 'link', '--team', 'T0123ABC', '--email', 'ops@example.com']

    const linked = await runCli(slack, env, `${token}\n`)
    expect(linked).toMatchObject({ code: 0, stdout: expect.stringContaining('Linked Slack workspace T0123ABC') })
    const workspaces = createSlackWorkspaces(() => parseKeyRing(TEST_MEMORY_KEYS))
    expect(await workspaces.account(database.db, 'T0123ABC')).toEqual({ accountId: account.id })
    expect(await workspaces.botToken(database.db, 'T0123ABC')).toBe(token)
    const everything = await dumpAllTables(database.db)
    expect(everything).toContain('T0123ABC')
    expect(everything).not.toContain(token)

    const noToken = await runCli(slack, env, '')
    expect(noToken).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Pipe the Slack bot token (xoxb-...) on stdin'),
    })
    const badTeam = await runCli(['slack', 'link', '--team', 'general', '--email', 'ops@example.com'], env, token)
    expect(badTeam).toMatchObject({ code: 1, stderr: expect.stringContaining('--team must be a Slack team id') })
    const nobody = await runCli(['slack', 'link', '--team', 'T0123ABC', '--email', 'no@example.com'], env, token)
    expect(nobody).toMatchObject({ code: 1, stderr: expect.stringContaining('No account has the email') })

    const repo = await runCli(['github', 'link', '--repo', 'Acme/Widgets', '--email', 'ops@example.com'], env)
    expect(repo).toMatchObject({ code: 0, stdout: expect.stringContaining('Linked GitHub repository Acme/Widgets') })
    expect(await findGithubRepository(database.db, 'acme/widgets')).toEqual({ accountId: account.id })
    const badRepo = await runCli(['github', 'link', '--repo', 'widgets', '--email', 'ops@example.com'], env)
    expect(badRepo).toMatchObject({ code: 1, stderr: expect.stringContaining('--repo must be owner/name') })
  } finally {
    await database.drop()
  }
})

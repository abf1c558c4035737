import { expect, test } from 'vitest'
import { createDatabase } from '#test/support/database.ts'
import { runCli } from '#test/support/process.ts'

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

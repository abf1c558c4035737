// The quickstart contract, end to end: the real entry point, its own embedded Postgres, signals.
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, test, vi } from 'vitest'
import { TEST_MEMORY_KEYS } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { createDatabase } from '#test/support/database.ts'
import {
  type LogLine,
  PROCESS_TEST_BUDGET_MS,
  processesMentioning,
  runCli,
  spawnSextant,
} from '#test/support/process.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { waitUntil } from '#test/support/sse-client.ts'

// Every test here starts real processes with their own Postgres, some twice: a budget, not a clock.
// The kill -9 test (two starts and an orphan stopped) ran past 30 s once on a two-core machine with
// the rest of the suite and two CPU-bound processes beside it (issue 41, item 2).
vi.setConfig({ testTimeout: PROCESS_TEST_BUDGET_MS })

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-boot-'))
fs.chmodSync(dataDir, 0o755)
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: '0' }

async function expectServing(url: string) {
  expect((await fetch(`${url}/healthz`)).status).toBe(200)
  expect((await fetch(`${url}/readyz`)).status).toBe(200)
  const dashboard = await fetch(`${url}/dashboard`, { redirect: 'manual' })
  expect(dashboard.status).toBe(302)
  expect((await fetch(`${url}/login`)).status).toBe(200)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The credentials the first start printed for the local account. */
function printedCredentials(lines: LogLine[]) {
  const text = lines
    .filter((line) => line.level === 'text')
    .map((line) => line.msg)
    .join('\n')
  const login = /Dashboard login: +(\S+) \/ (\S+)/.exec(text)
  const apiKey = /API key: +(sx_\S+)/.exec(text)?.[1]
  const demoKey = /Demo key .*: (sx_\S+)/.exec(text)?.[1]
  return { email: login?.[1], password: login?.[2], apiKey, demoKey }
}

test('first start initialises the cluster, serves, and SIGINT leaves no postgres behind', async () => {
  const app = spawnSextant(env)
  await app.waitForLog((line) => line.msg === 'initialising a new embedded Postgres cluster')
  const generated = await app.waitForLog((line) => line.msg.startsWith('generated a memory encryption key'))
  expect(generated.file).toBe(path.join(dataDir, 'memory-key'))
  expect(fs.statSync(path.join(dataDir, 'memory-key')).mode & 0o777).toBe(0o600)
  const ready = await app.waitForLog((line) => typeof line.url === 'string')
  const url = ready.url as string
  await expectServing(url)
  expect(processesMentioning(dataDir).length).toBeGreaterThan(0)

  // The printed local account and keys work: the newcomer can log in and call the API at once.
  const printed = printedCredentials(app.lines)
  const cookie = await logIn(url, printed.email as string, printed.password as string)
  const dashboard = await fetch(`${url}/dashboard`, { headers: { Cookie: cookie } })
  expect(await dashboard.text()).toContain('Dashboard')
  const me = await fetch(`${url}/api/me`, { headers: { Authorization: `Bearer ${printed.apiKey}` } })
  expect(await me.json()).toMatchObject({ account: { email: printed.email, kind: 'local' } })
  const demo = await fetch(`${url}/api/me`, { headers: { Authorization: `Bearer ${printed.demoKey}` } })
  expect(await demo.json()).toMatchObject({ auth: { demo: true } })

  // With no provider keys at all, a brief researches the sample corpus to a complete report.
  const auth = { Authorization: `Bearer ${printed.apiKey}` }
  const started = await postBrief((path, init) => fetch(`${url}${path}`, init), auth, {
    topic: 'sodium-ion batteries',
    depth: 'quick',
  })
  expect(started.response.status).toBe(202)
  const done = await waitForRun((path, init) => fetch(`${url}${path}`, init), auth, started.body.runId)
  expect(done.status).toBe('complete')
  expect(done.report?.sources.length).toBeGreaterThan(0)

  app.child.kill('SIGINT')
  expect(await app.exited).toBe(0)
  expect(app.lines.map((line) => line.msg)).toEqual(
    expect.arrayContaining(['shutting down', 'job system stopped', 'embedded Postgres stopped', 'stopped']),
  )
  expect(processesMentioning(dataDir)).toEqual([])
  expect(fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true)
})

test('a second start reuses the data, moves off a taken port, and SIGTERM stops it cleanly', async () => {
  const first = fs.readFileSync(path.join(dataDir, 'postgres-password'), 'utf8')
  const squatter = net.createServer()
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve))
  const taken = (squatter.address() as net.AddressInfo).port
  const app = spawnSextant({ ...env, EMBEDDED_PG_PORT: String(taken) })
  await app.waitForLog((line) => line.msg === 'reusing the embedded Postgres cluster')
  const moved = await app.waitForLog((line) => line.msg === 'the embedded Postgres port is in use; using another')
  expect(moved).toMatchObject({ taken, port: expect.any(Number) })
  expect(moved.port).not.toBe(taken)
  const migrated = await app.waitForLog((line) => line.msg === 'database is up to date')
  const ready = await app.waitForLog((line) => typeof line.url === 'string')
  await expectServing(ready.url as string)
  expect(printedCredentials(app.lines)).toEqual({}) // secrets are printed on the first start only
  // The address and the dashboard are printed at every start, on a terminal or not (this is a pipe).
  const url = ready.url as string
  await app.waitForLog((line) => line.level === 'text' && line.msg.includes('Dashboard:'), 5000)
  expect(app.lines.filter((line) => line.level === 'text').map((line) => line.msg.trim())).toEqual(
    expect.arrayContaining([`Sextant is running at ${url}`, `Dashboard: ${url}/dashboard`]),
  )
  // And what it researches with, and how to change it: here the invented sample and no model.
  await app.waitForLog((line) => line.level === 'text' && line.msg.includes('Model:'), 5000)
  expect(app.lines.filter((line) => line.level === 'text').map((line) => line.msg.trim())).toEqual(
    expect.arrayContaining([
      'Search: the sample corpus bundled with Sextant: invented articles for trying it offline, not the web.',
      expect.stringMatching(
        /^To search the web: SEARCH_PROVIDER=open \(no key needed\), or no SEARCH_PROVIDER and EXA_API_KEY/,
      ),
      'Model:  extractive (no language model): reports quote sentences of the pages read.',
      'For a model: OPENAI_API_KEY (with OPENAI_BASE_URL, any OpenAI-compatible API), or a running Ollama with llama3.1 pulled.',
    ]),
  )
  expect(app.lines.find((line) => line.msg === 'research providers')).toMatchObject({
    search: 'local corpus',
    searchInUse: expect.stringMatching(/^the sample corpus .*invented/),
    model: 'extractive (no language model)',
    modelChange: expect.stringMatching(/OPENAI_API_KEY/),
  })
  expect(fs.readFileSync(path.join(dataDir, 'postgres-password'), 'utf8')).toBe(first)
  expect(migrated.applied).toEqual([])
  // The CLI works beside the running app, through the app's own Postgres.
  expect(await runCli(['db', 'status'], env)).toMatchObject({ code: 0, stdout: 'Up to date: no pending migrations.\n' })

  app.child.kill('SIGTERM')
  expect(await app.exited).toBe(0)
  squatter.close()
  expect(processesMentioning(dataDir)).toEqual([])
})

test('after a kill -9, the next start stops the orphaned postgres and carries on', async () => {
  const crashed = spawnSextant(env)
  await crashed.waitForLog((line) => typeof line.url === 'string')
  crashed.child.kill('SIGKILL')
  await crashed.exited
  expect(processesMentioning(dataDir).length).toBeGreaterThan(0) // postgres outlived its parent

  const app = spawnSextant(env)
  await app.waitForLog((line) => line.msg === 'stopping a Postgres left running by an earlier Sextant process')
  const ready = await app.waitForLog((line) => typeof line.url === 'string')
  await expectServing(ready.url as string)
  app.child.kill('SIGINT')
  expect(await app.exited).toBe(0)
  expect(processesMentioning(dataDir)).toEqual([])
})

test('SIGTERM to `npm start` (what Docker, systemd and CI send) stops node and its Postgres', async () => {
  const npm = spawnSextant(env, { npm: true })
  const postgres = await npm.waitForLog((line) => line.msg === 'embedded Postgres is ready')
  await npm.waitForLog((line) => typeof line.url === 'string')
  const node = postgres.pid as number
  expect(node).not.toBe(npm.child.pid) // npm runs node as its child: the signal has to be passed on
  try {
    npm.child.kill('SIGTERM')
    await npm.exited
    await waitUntil(() => processesMentioning(dataDir).length === 0 && !isRunning(node))
  } finally {
    // Left running by an npm that did not pass the signal on: stop it as npm should have.
    if (isRunning(node)) process.kill(node, 'SIGTERM')
  }
})

// A terminal's Ctrl-C signals the whole foreground process group: npm and node both get it, and npm
// passes it on to node as well. That echo is the same request, not a second one.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} to the process group of \`npm start\` (a terminal's Ctrl-C) stops node and its Postgres`, async () => {
    const npm = spawnSextant(env, { npm: true, processGroup: true })
    const postgres = await npm.waitForLog((line) => line.msg === 'embedded Postgres is ready')
    await npm.waitForLog((line) => typeof line.url === 'string')
    const node = postgres.pid as number
    try {
      process.kill(-(npm.child.pid as number), signal)
      expect(await npm.exited).toBe(0)
      await waitUntil(() => !isRunning(node))
      expect(processesMentioning(dataDir)).toEqual([])
      const said = npm.lines.map((line) => line.msg)
      expect(said).toEqual(expect.arrayContaining(['shutting down', 'embedded Postgres stopped', 'stopped']))
      expect(said).not.toContain('second signal: exiting now')
    } finally {
      if (isRunning(node)) process.kill(node, 'SIGKILL')
      await waitUntil(() => processesMentioning(dataDir).length === 0).catch(() => {})
    }
  })
}

test('a second request to stop exits at once, and still stops its Postgres', async () => {
  const app = spawnSextant(env)
  const ready = await app.waitForLog((line) => line.msg === 'embedded Postgres is ready')
  await app.waitForLog((line) => typeof line.url === 'string')
  const postgresPid = ready.postgresPid as number
  // Another kind of signal right behind the first is a second request, whatever the timing.
  app.child.kill('SIGTERM')
  app.child.kill('SIGINT')
  expect(await app.exited).toBe(1)
  expect(app.lines.map((line) => line.msg)).toContain('second signal: exiting now')
  await waitUntil(() => !isRunning(postgresPid))
  expect(processesMentioning(dataDir)).toEqual([])
  expect(fs.existsSync(path.join(dataDir, 'sextant.pid'))).toBe(false)
})

test('a bad variable stops the process at boot with its name', async () => {
  const app = spawnSextant({ ...env, PORT: 'abc' })
  expect(await app.exited).toBe(1)
  expect(app.stderr()).toContain('PORT: must be a number (got "abc")')
  expect(processesMentioning(dataDir)).toEqual([])
})

test('with DATABASE_URL set, that database is used and no embedded server starts', async () => {
  const database = await createDatabase('template0')
  const otherDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-external-'))
  try {
    const app = spawnSextant({
      DATABASE_URL: database.url,
      DATA_DIR: otherDataDir,
      MEMORY_ENCRYPTION_KEYS: TEST_MEMORY_KEYS,
    })
    const migrated = await app.waitForLog((line) => line.msg === 'database migrated')
    expect(migrated).toMatchObject({ embedded: false })
    const ready = await app.waitForLog((line) => typeof line.url === 'string')
    await expectServing(ready.url as string)
    app.child.kill('SIGINT')
    expect(await app.exited).toBe(0)
    expect(app.lines.some((line) => /embedded Postgres/i.test(line.msg))).toBe(false)
    expect(fs.readdirSync(otherDataDir)).toEqual([])
  } finally {
    await database.drop()
    fs.rmSync(otherDataDir, { recursive: true, force: true })
  }
})

test('RUN_ROLE=worker runs jobs and serves no HTTP', async () => {
  const database = await createDatabase('sextant_template')
  try {
    const worker = spawnSextant({
      DATABASE_URL: database.url,
      RUN_ROLE: 'worker',
      PORT: '3999',
      MEMORY_ENCRYPTION_KEYS: TEST_MEMORY_KEYS,
    })
    const started = await worker.waitForLog((line) => line.msg === 'job system started')
    expect(started).toMatchObject({ work: true })
    await worker.waitForLog((line) => line.msg === 'Sextant worker is running')
    await expect(fetch('http://127.0.0.1:3999/healthz')).rejects.toThrow()
    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
    expect(worker.lines.some((line) => typeof line.url === 'string')).toBe(false)
  } finally {
    await database.drop()
  }
})

test.runIf(process.getuid?.() === 0)(
  'as root, a DATA_DIR the postgres user cannot reach gets its cluster in /var/lib/sextant',
  async () => {
    const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-private-')) // mode 700, owned by root
    const dataDir = path.join(privateDir, 'data')
    try {
      const app = spawnSextant({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: '0' })
      const moved = await app.waitForLog((line) => line.msg.startsWith('the postgres OS user cannot reach DATA_DIR'))
      const ready = await app.waitForLog((line) => typeof line.url === 'string')
      await expectServing(ready.url as string)
      app.child.kill('SIGINT')
      expect(await app.exited).toBe(0)
      expect(fs.readFileSync(path.join(dataDir, 'postgres-location'), 'utf8').trim()).toBe(moved.clusterDir)
      fs.rmSync(path.dirname(moved.clusterDir as string), { recursive: true, force: true })
    } finally {
      fs.rmSync(privateDir, { recursive: true, force: true })
    }
  },
)

test('production on its own database refuses to start without memory keys, before touching it', async () => {
  const app = spawnSextant({ NODE_ENV: 'production', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })
  expect(await app.exited).toBe(1)
  const fatal = app.lines.find((line) => line.level === 'fatal')
  expect(fatal?.msg).toMatch(/MEMORY_ENCRYPTION_KEYS is required in production/)
})

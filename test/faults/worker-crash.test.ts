// A worker process killed with SIGKILL in the middle of a run: another worker resumes the run from
// its checkpoint and completes it, without repeating the steps that had finished, and the topic's
// memory holds the run once.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, TEST_MEMORY_KEYS, type TestApp } from '#test/support/app.ts'
import { spawnSextant } from '#test/support/process.ts'
import { expectRunIntegrity, loadIntactMemory } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { STUB_EXA_API_KEY, type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'

let exa: StubExa
let openai: StubOpenAi
let web: TestApp
let env: Record<string, string>

beforeAll(async () => {
  exa = await startStubExa({
    documents: [
      {
        url: 'https://ops.example/crash-recovery/checkpoints',
        title: 'Crash recovery with checkpoints',
        publishedDate: new Date().toISOString(),
        text: 'Crash recovery: a job that checkpoints each step resumes after the crash at the first unfinished step.',
      },
      {
        url: 'https://ops.example/crash-recovery/heartbeats',
        title: 'Heartbeats find dead workers',
        publishedDate: new Date().toISOString(),
        text: 'Crash recovery in job queues relies on heartbeats: a worker that stops beating loses its job to another.',
      },
    ],
  })
  openai = await startStubOpenAi()
  env = {
    EXA_API_KEY: STUB_EXA_API_KEY,
    EXA_BASE_URL: exa.url,
    OPENAI_API_KEY: openai.apiKey,
    OPENAI_BASE_URL: openai.baseUrl,
    PROVIDER_TIMEOUT_SECONDS: '60',
    RUN_DEADLINE_QUICK_SECONDS: '180',
    RATE_LIMIT_RUNS_PER_HOUR: '100',
  }
  // The web process only sends jobs; the workers are real child processes.
  web = await startTestApp({ env: { ...env, RUN_ROLE: 'web' } })
})
afterAll(async () => {
  await web.stop()
  await exa.close()
  await openai.close()
})

async function stepEvents(runId: string) {
  return web.db.selectFrom('run_events').select(['type', 'step']).where('run_id', '=', runId).orderBy('id').execute()
}

test('kill -9 of the worker mid-search: another worker completes the run, repeating no finished step', {
  timeout: 120_000,
}, async () => {
  const workerEnv = {
    ...env,
    DATABASE_URL: web.databaseUrl,
    RUN_ROLE: 'worker',
    MEMORY_ENCRYPTION_KEYS: TEST_MEMORY_KEYS,
  }
  const first = spawnSextant(workerEnv)
  await first.waitForLog((line) => line.msg === 'Sextant worker is running')
  exa.setBehaviour('hang') // the first worker gets stuck in search

  const user = await createTestAccount(web.db)
  const { body } = await postBrief(web.fetch, user.auth, { topic: 'Crash recovery', depth: 'quick' })
  const deadline = performance.now() + 30_000
  while (!(await stepEvents(body.runId)).some((event) => event.type === 'step_started' && event.step === 'search')) {
    if (performance.now() > deadline) throw new Error('the first worker never reached the search step')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const plansBefore = openai.requests.filter((request) => request.kind === 'plan').length
  first.child.kill('SIGKILL')
  await first.exited
  exa.setBehaviour('answer')

  const second = spawnSextant(workerEnv)
  try {
    // Resumed within the heartbeat (20 s) and a monitor pass (10 s), then a look (5 s): before the
    // monitor's interval was set, its default of 60 s made this take up to 80 s.
    const done = await waitForRun(web.fetch, user.auth, body.runId, 60_000)
    expect(done.status).toBe('complete')
    const events = await stepEvents(body.runId)
    const started = (step: string) =>
      events.filter((event) => event.type === 'step_started' && event.step === step).length
    expect(started('load_memory')).toBe(1)
    expect(started('plan')).toBe(1) // the paid planning call was checkpointed, not repeated
    expect(started('search')).toBe(2) // the interrupted step ran again
    expect(started('synthesize')).toBe(1)
    expect(openai.requests.filter((request) => request.kind === 'plan').length).toBe(plansBefore)
    expect(events.filter((event) => event.type === 'complete')).toHaveLength(1)
    await expectRunIntegrity(web.db, body.runId)
    const memory = await loadIntactMemory(web.memory, user.account.id, 'Crash recovery')
    expect(memory?.runs.map((run) => run.runId)).toEqual([body.runId])
    expect(memory?.ledger.map((entry) => entry.url).sort()).toEqual([
      'https://ops.example/crash-recovery/checkpoints',
      'https://ops.example/crash-recovery/heartbeats',
    ])
    expect(memory?.facts.length).toBeGreaterThan(0)
  } finally {
    second.child.kill('SIGTERM')
    await second.exited
  }
})

// The database failing at the worst moments of a run: as it ends, or under a step's progress. A run must never end without its
// final event (streams watching it would wait forever), and what follows its end (a recurring
// brief's next run, a chat reply) must not be lost when that part fails once. The failures are
// one-shot triggers: a sequence counts calls, and sequences are not rolled back with the error.
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { expectRunIntegrity } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { openEventStream } from '#test/support/sse-client.ts'

let app: TestApp
beforeAll(async () => {
  // Sample corpus and extractive synthesis: fast runs, no providers needed.
  app = await startTestApp({ env: { RATE_LIMIT_RUNS_PER_HOUR: '1000', RECURRING_INTERVAL: '7d' } })
})
afterAll(() => app.stop())
afterEach(async () => {
  await sql`drop trigger if exists fail_once on run_events`.execute(app.db)
  await sql`drop trigger if exists fail_once on series`.execute(app.db)
  await sql`drop function if exists fail_once()`.execute(app.db)
  await sql`drop sequence if exists fail_once_calls`.execute(app.db)
})

/** Makes the first write matching `condition` to `table` fail, as a dropped connection would. */
async function failOnce(table: 'run_events' | 'series', condition: string) {
  await sql`create sequence fail_once_calls`.execute(app.db)
  await sql
    .raw(`create function fail_once() returns trigger language plpgsql as $$
      begin
        if (${condition}) and nextval('fail_once_calls') = 1 then
          raise exception 'terminating connection due to administrator command';
        end if;
        return new;
      end $$`)
    .execute(app.db)
  await sql
    .raw(`create trigger fail_once before insert or update on ${table} for each row execute function fail_once()`)
    .execute(app.db)
}

// A search's progress is written behind it, not waited for; a write that fails must still stop the
// step short of its boundary, or the run would go on without the event.
test('a progress event failing to write: the step is done again from its boundary, its events whole', async () => {
  const user = await createTestAccount(app.db)
  await failOnce('run_events', "new.type = 'query_done'")
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'grid storage', depth: 'quick' })
  const done = await waitForRun(app.fetch, user.auth, body.runId)
  expect(done.status).toBe('complete')
  const events = await sql<{ type: string; step: string | null }>`
    select type, step from run_events where run_id = ${body.runId} order by id`.execute(app.db)
  const types = events.rows.map((row) => `${row.type} ${row.step}`)
  // The search ran twice: the job resumed from the plan's boundary.
  expect(types.filter((type) => type === 'step_started search')).toHaveLength(2)
  const lastSearch = types.lastIndexOf('step_started search')
  const finished = types.indexOf('step_finished search')
  expect(finished).toBeGreaterThan(lastSearch)
  const queryDone = types.slice(lastSearch, finished).filter((type) => type === 'query_done search')
  expect(queryDone).toHaveLength(done.report?.usage.searchCalls ?? -1)
  await expectRunIntegrity(app.db, body.runId)
})

test('the final event failing to write: the run still ends with it, and the stream watching sees the end', async () => {
  const user = await createTestAccount(app.db)
  await failOnce('run_events', "new.type = 'complete'")
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'battery recycling', depth: 'quick' })
  const stream = await openEventStream(new URL(`/api/briefs/${body.runId}/events`, app.url), user.auth)
  await stream.waitFor(() => stream.closed)
  expect(stream.messages.at(-1)?.event).toBe('complete')
  expect((await waitForRun(app.fetch, user.auth, body.runId)).status).toBe('complete')
  // The retried job resumed after the synthesis (kept when the end failed) and saved memory once:
  // the failed end saved nothing, its memory write rolled back with it.
  const started = await sql<{ step: string }>`
    select step from run_events where run_id = ${body.runId} and type = 'step_started'`.execute(app.db)
  expect(started.rows.filter((row) => row.step === 'synthesize')).toHaveLength(1)
  const memory = await app.fetch(`/api/memory/check?topic=${encodeURIComponent('battery recycling')}`, {
    headers: user.auth,
  })
  expect(await memory.json()).toMatchObject({ runCount: 1 })
  await expectRunIntegrity(app.db, body.runId)
})

test('what follows the end failing once (scheduling the next run of a series): the retried job does it', async () => {
  const user = await createTestAccount(app.db)
  // The run's end schedules the series' next slot by updating the series row: that write fails once.
  await failOnce('series', 'new.scheduled_after_run_id is not null')
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'grid storage', depth: 'quick', recurring: true })
  expect((await waitForRun(app.fetch, user.auth, body.runId)).status).toBe('complete')
  const deadline = performance.now() + 20_000
  for (;;) {
    const { series } = await (await app.fetch('/api/series', { headers: user.auth })).json()
    if (series[0]?.nextRunAt) {
      expect(series[0].state).toBe('sleeping')
      expect(new Date(series[0].nextRunAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000)
      break
    }
    if (performance.now() > deadline) throw new Error(`the series was never scheduled: ${JSON.stringify(series)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await expectRunIntegrity(app.db, body.runId)
})

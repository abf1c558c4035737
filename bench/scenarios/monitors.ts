// Monitors (issue 42, item 5): a monitoring service's hardest hour, when many recurring briefs fall
// due at once. One web process (RUN_ROLE=web) and three worker processes (`npm run worker`) on one
// Postgres take 2,000 quick runs from 50 accounts (one of them with 1,000, the other 49 sharing
// 1,000), posted as fast as the harness can, in an order shuffled from a fixed seed (series due
// together wake in no particular order). The providers have limits (bench/limited-stubs.ts): search
// answers 20 requests in any sliding second, the model 8 calls at once; beyond that they answer 429
// with `Retry-After: 1`. The server shares EXA_REQUESTS_PER_SECOND=20 and
// OPENAI_CONCURRENT_REQUESTS=8 between its processes (decisions 038, 041); its
// OPENAI_REQUESTS_PER_MINUTE is set where it does not bind before the concurrency does. Runs are followed in the database (2,000 event
// streams would load the machine the scenario measures), and read back from it when all have ended.
// Standalone and opt-in: `npm run bench -- --only monitors` (BENCH_QUICK=1: 200 runs, 10 accounts).
import { setTimeout as sleep } from 'node:timers/promises'
import { now, onOurClock } from '#bench/client.ts'
import { mib, ms, percentile, type Row, seconds } from '#bench/measure.ts'
import { createRng } from '#bench/quality/rng.ts'
import type { StandaloneScenario } from '#bench/scenario.ts'
import type { ProviderLimits } from '#bench/stub-protocol.ts'
import { createDb, createPool } from '#db/database.ts'
import { createLogger } from '#server/logger.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { mostAtOnce } from '#test/support/intervals.ts'

/** The providers' fixed latencies: a search and a model call (chat or embeddings) as they take. */
const SEARCH_MS = 150
const MODEL_MS = 300
const LIMITS: ProviderLimits = { searchPerSecond: 20, modelConcurrency: 8 }
const WORKERS = 3
const WORKER_CONCURRENCY = 8
/**
 * RUNS_PER_ACCOUNT: the most runs one account may have going across the three workers. Two workers'
 * worth: the big account cannot hold every slot, and alone (once the small accounts are done) it
 * still has enough runs going to keep the model's 8 calls at once busy.
 */
const RUNS_PER_ACCOUNT = 16
/**
 * OPENAI_REQUESTS_PER_MINUTE: three times what 8 calls at once of MODEL_MS can make (1,600 a
 * minute), so the shared rate never binds before the model's concurrency does.
 */
const MODEL_CEILING_PER_MINUTE = (LIMITS.modelConcurrency * 60_000) / MODEL_MS
const OPENAI_REQUESTS_PER_MINUTE = 3 * MODEL_CEILING_PER_MINUTE
/** POSTs in flight at once: the web process's pool (10 connections) is busy well before this. */
const POSTS_AT_ONCE = 32
/** Issue 42's targets: the rate a provider sees within 5% of its limit, the makespan within 15% of its floor. */
const RATE_TARGET = 1.05
const MAKESPAN_TARGET = 1.15
/** How long the harness waits for every run to end, after the last POST (runs end at their deadline anyway). */
const WAIT_MS = 20 * 60_000
const POLL_MS = 1000
const PROGRESS_EVERY_MS = 30_000
/** Failed runs whose error is read back (GET /api/briefs/{id}), for the reasons. */
const FAILED_SAMPLE = 200
/** A POST answered 429 (the server's per-address budget of API-key checks) is sent again after its Retry-After, this often at most. */
const POST_TRIES = 30

type Planned = { account: number; topic: string }
type Posted = Planned & { runId?: string; postedAt: number; error?: string; tries: number }
type RunRow = {
  id: string
  account_id: string
  status: string
  created_ms: number
  started_ms: number | null
  finished_ms: number | null
}

export const monitorsScenario: StandaloneScenario = {
  name: 'monitors',
  async run(context) {
    const { monitorsRuns: total, monitorsAccounts: accountCount, monitorsBigAccountRuns: bigRuns } = context.sizes
    const stubs = await context.startStubs({ modelMs: MODEL_MS, searchMs: SEARCH_MS }, LIMITS)
    const own = await context.startServer(
      {
        ...stubs.env,
        EXA_REQUESTS_PER_SECOND: String(LIMITS.searchPerSecond),
        OPENAI_REQUESTS_PER_MINUTE: String(OPENAI_REQUESTS_PER_MINUTE),
        OPENAI_CONCURRENT_REQUESTS: String(LIMITS.modelConcurrency),
        WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
        RUNS_PER_ACCOUNT: String(RUNS_PER_ACCOUNT),
        // Every POST comes from loopback: the per-address run limit must take the whole burst.
        RATE_LIMIT_RUNS_PER_HOUR: '1000000',
      },
      { workers: WORKERS },
    )
    const pool = createPool(own.databaseUrl(), 4, createLogger({ level: 'silent' }))
    const failures: string[] = []
    try {
      // The accounts, each with an API key, straight into the database as the tests make them.
      const db = createDb(pool)
      const keys: string[] = []
      const accountIds: string[] = []
      for (let i = 0; i < accountCount; i += 4) {
        const made = await Promise.all(
          Array.from({ length: Math.min(4, accountCount - i) }, () => createTestAccount(db)),
        )
        for (const account of made) {
          keys.push(account.key)
          accountIds.push(account.account.id)
        }
      }
      const plan = planRuns(total, accountCount, bigRuns)
      // Each key checked once before the burst, one at a time: the server verifies at most two keys
      // at once per client address (argon2) and 429s the rest, and series that fall due are woken
      // inside the server, with no key to check. Its cache keeps a key 10 s; later checks may 429
      // (the POST is then sent again after Retry-After, counted in the posting row).
      for (const key of keys) await checkKey(own.server.url, key)

      const cpuBefore = cpuOf(own)
      own.server.resetPeak()
      for (const worker of own.workers) worker.resetPeak()
      stubs.resetPeak()

      // The burst: every run posted as fast as POSTS_AT_ONCE clients can.
      const posted: Posted[] = []
      let next = 0
      await Promise.all(
        Array.from({ length: POSTS_AT_ONCE }, async () => {
          while (next < plan.length) {
            const run = plan[next++] as Planned
            const postedAt = now()
            const answer = await postBrief(own.server.url, keys[run.account] as string, run.topic)
            posted.push({ ...run, ...answer, postedAt })
          }
        }),
      )
      const lastPost = now()
      const refused = posted.filter((run) => run.error)
      const retried = posted.filter((run) => run.tries > 1)
      if (refused.length > 0) failures.push(`${refused.length} POSTs failed, e.g. ${refused[0]?.error}`)

      // Every run ends (completed, or failed at its deadline at the latest); followed in the database.
      const accepted = posted.length - refused.length
      const deadline = Date.now() + WAIT_MS
      let lastProgress = Date.now()
      for (;;) {
        const { rows } = await pool.query<{ ended: string; failed: string }>(
          `select count(*) filter (where status <> 'running') as ended, count(*) filter (where status = 'failed') as failed
           from runs where account_id = any($1::uuid[])`,
          [accountIds],
        )
        const ended = Number(rows[0]?.ended ?? 0)
        if (ended >= accepted) break
        if (Date.now() > deadline) {
          failures.push(`${accepted - ended} runs had not ended ${WAIT_MS / 60_000} min after the last POST`)
          break
        }
        if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
          lastProgress = Date.now()
          process.stderr.write(
            `\n  monitors: ${ended} / ${accepted} runs ended (${rows[0]?.failed} failed), ${((now() - (posted[0]?.postedAt ?? 0)) / 1000).toFixed(0)} s `,
          )
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
      const cpuAfter = cpuOf(own)
      const stats = await stubs.limitStats()
      if (!stats) throw new Error('the stubs were started without limits')
      const peakRss = {
        web: own.server.peakRss(),
        workers: own.workers.map((worker) => worker.peakRss()),
        stubs: stubs.peakRss(),
      }

      // What the runs did, on the harness's clock (the database's wall clock, moved to it).
      const { rows: runRows } = await pool.query<RunRow>(
        `select id, account_id, status,
           extract(epoch from created_at) * 1000 as created_ms,
           extract(epoch from started_at) * 1000 as started_ms,
           extract(epoch from finished_at) * 1000 as finished_ms
         from runs where account_id = any($1::uuid[])`,
        [accountIds],
      )
      const runs = runRows.map((row) => ({
        id: row.id,
        account: accountIds.indexOf(row.account_id),
        status: row.status,
        createdAt: onOurClock(Number(row.created_ms)),
        startedAt: row.started_ms === null ? undefined : onOurClock(Number(row.started_ms)),
        finishedAt: row.finished_ms === null ? undefined : onOurClock(Number(row.finished_ms)),
      }))
      const { rows: warningRows } = await pool.query<{ step: string | null; count: string }>(
        `select step, count(*) as count from run_events e join runs r on r.id = e.run_id
         where r.account_id = any($1::uuid[]) and e.type = 'warning' group by step order by step`,
        [accountIds],
      )
      const warnings = Object.fromEntries(warningRows.map((row) => [row.step ?? 'none', Number(row.count)]))
      const failedRuns = runs.filter((run) => run.status === 'failed')
      const failedReasons = await reasonsOf(
        own.server.url,
        failedRuns.slice(0, FAILED_SAMPLE),
        (run) => keys[run.account] as string,
      )

      // Runs, makespan and its floor.
      const completed = runs.filter((run) => run.status === 'complete')
      const notEnded = runs.filter((run) => run.status === 'running').length
      const firstPost = Math.min(...posted.map((run) => run.postedAt))
      const ends = runs.flatMap((run) => (run.finishedAt === undefined ? [] : [run.finishedAt]))
      const lastEnd = Math.max(...ends)
      const makespan = lastEnd - firstPost
      const modelServed = Object.values(stats.modelServedByKind).reduce((sum, count) => sum + count, 0)
      const searchFloor = (stats.searchesServed / LIMITS.searchPerSecond) * 1000
      const modelFloor = (modelServed * MODEL_MS) / LIMITS.modelConcurrency
      const floor = Math.max(searchFloor, modelFloor)

      // Fairness: the small accounts' last start and last end against the big account's runs half done.
      const big = runs.filter((run) => run.account === 0)
      const small = runs.filter((run) => run.account !== 0)
      const bigCompletions = big
        .filter((run) => run.status === 'complete')
        .map((run) => run.finishedAt as number)
        .sort((a, b) => a - b)
      const half = Math.ceil(bigRuns / 2)
      // Without a `half`th completion (its runs failed), the half is its `half`th run to end, failed or not:
      // the small accounts are then held to when the big account's runs were half through, either way.
      const bigEnds = big.flatMap((run) => (run.finishedAt === undefined ? [] : [run.finishedAt])).sort((a, b) => a - b)
      const bigHalfAt = bigCompletions[half - 1] ?? bigEnds[half - 1]
      const smallStarts = small.flatMap((run) => (run.startedAt === undefined ? [] : [run.startedAt]))
      const smallNeverStarted = small.length - smallStarts.length + (total - bigRuns - small.length)
      const smallLastStart = Math.max(...smallStarts)
      const smallLastEnd = Math.max(...small.flatMap((run) => (run.finishedAt === undefined ? [] : [run.finishedAt])))
      const fair = smallNeverStarted === 0 && bigHalfAt !== undefined && smallLastStart <= bigHalfAt
      const since = (time: number | undefined) => (time === undefined ? 'never' : seconds(time - firstPost))
      const halfLabel =
        bigCompletions.length >= half
          ? since(bigHalfAt)
          : `${since(bigHalfAt)} (only ${bigCompletions.length} completed: its ${half}th run to end)`
      // Each small account's wait for its last run to start, for the detail.
      const lastStartByAccount = new Map<number, number>()
      for (const run of small) {
        if (run.startedAt === undefined) continue
        lastStartByAccount.set(run.account, Math.max(lastStartByAccount.get(run.account) ?? 0, run.startedAt))
      }

      // The account cap, read from the runs' own start and end times.
      const atOnce = (account: number) =>
        mostAtOnce(
          runs.filter((run) => run.account === account).map((run) => ({ start: run.startedAt, end: run.finishedAt })),
        )
      const bigAtOnce = atOnce(0)
      const smallAtOnce = Math.max(0, ...[...lastStartByAccount.keys()].map(atOnce))

      const cpu = {
        server: cpuAfter.server - cpuBefore.server,
        postgres: cpuAfter.postgres - cpuBefore.postgres,
        web: cpuAfter.web - cpuBefore.web,
      }
      // On BENCH_DATABASE_URL the harness cannot see the database's processes.
      const external = process.env.BENCH_DATABASE_URL !== undefined && process.env.BENCH_DATABASE_URL !== ''
      const scenario = `monitors ${total}`
      const peakSearch = stats.search.peakInWindow
      const peakModel = stats.model.peakAtOnce
      const served = stats.modelServedByKind
      const kinds = [served.plan ?? 0, served.synthesize ?? 0, served.judge ?? 0, served.embed ?? 0]
      const rows: Row[] = [
        {
          scenario,
          metric: `runs completed / failed of ${total} (${accountCount} accounts, one with ${bigRuns}; ${WORKERS} workers x ${WORKER_CONCURRENCY})`,
          value: `${completed.length} / ${failedRuns.length + refused.length + notEnded}${failedRuns.length > 0 ? ` (${describeReasons(failedReasons, failedRuns.length)})` : ''}`,
          target: '0 failed',
          met: failedRuns.length + refused.length + notEnded === 0,
        },
        {
          scenario,
          metric: `posting: first to last POST, ${accepted} runs accepted (${POSTS_AT_ONCE} POSTs at once); POSTs sent again after a 429`,
          value: `${seconds(lastPost - firstPost)}; ${retried.length} (${retried.reduce((sum, run) => sum + run.tries - 1, 0)} times)`,
        },
        {
          scenario,
          metric: `429s sent: search (${SEARCH_MS} ms, ${LIMITS.searchPerSecond}/s) / model (${MODEL_MS} ms, ${LIMITS.modelConcurrency} at once)`,
          value: `${stats.search.rejected} of ${stats.search.arrivals} / ${stats.model.rejected} of ${stats.model.arrivals}`,
        },
        {
          scenario,
          metric: `search: most requests in any 1 s (429s included) vs ${LIMITS.searchPerSecond}`,
          value: `${peakSearch} (answered at most ${stats.search.peakAdmittedInWindow})`,
          target: `<= ${LIMITS.searchPerSecond * RATE_TARGET}`,
          met: peakSearch <= LIMITS.searchPerSecond * RATE_TARGET,
        },
        {
          scenario,
          metric: `model: most calls at once (429s included) vs ${LIMITS.modelConcurrency}`,
          value: `${peakModel} (answered at most ${stats.model.peakAdmittedAtOnce} at once)`,
          target: `<= ${LIMITS.modelConcurrency * RATE_TARGET}`,
          met: peakModel <= LIMITS.modelConcurrency * RATE_TARGET,
        },
        {
          scenario,
          metric: `makespan / floor (floor = max(${stats.searchesServed} searches / ${LIMITS.searchPerSecond} per s, ${modelServed} model calls x ${MODEL_MS} ms / ${LIMITS.modelConcurrency}))`,
          value: `${seconds(makespan)} / ${seconds(floor)} = ${(makespan / floor).toFixed(2)}`,
          target: `<= ${MAKESPAN_TARGET}`,
          met: makespan / floor <= MAKESPAN_TARGET,
        },
        {
          scenario,
          metric: `small accounts' last run started / ended vs the big account's runs half done (its ${half}th completion)`,
          value: `${since(smallLastStart)} / ${since(smallLastEnd)} vs ${halfLabel}${smallNeverStarted > 0 ? `; ${smallNeverStarted} small runs never started` : ''}`,
          target: 'all started before',
          met: fair,
        },
        {
          scenario,
          metric: `most runs one account had going at once: the big one / any small one (RUNS_PER_ACCOUNT ${RUNS_PER_ACCOUNT})`,
          value: `${bigAtOnce} / ${smallAtOnce}`,
          target: `<= ${RUNS_PER_ACCOUNT}`,
          met: Math.max(bigAtOnce, smallAtOnce) <= RUNS_PER_ACCOUNT,
        },
        {
          scenario,
          metric: 'model calls served: plan / synthesize / judge / embed (per completed run)',
          value: `${kinds.join(' / ')}${completed.length > 0 ? ` (${kinds.map((count) => (count / completed.length).toFixed(2)).join(' / ')})` : ''}`,
        },
        {
          scenario,
          metric: 'CPU per run: Postgres; all Sextant processes (web)',
          value: external
            ? `n/a (BENCH_DATABASE_URL); ${ms(cpu.server / total)} (${ms(cpu.web / total)})`
            : `${ms(cpu.postgres / total)}; ${ms(cpu.server / total)} (${ms(cpu.web / total)})`,
        },
        {
          scenario,
          metric: `peak RSS: web / ${own.workers.map((_, i) => `worker ${i + 1}`).join(' / ')} / stubs`,
          value: [peakRss.web, ...peakRss.workers, peakRss.stubs].map(mib).join(' / '),
        },
        {
          scenario,
          metric: 'note',
          value: `OPENAI_CONCURRENT_REQUESTS=${LIMITS.modelConcurrency} is the model's limit; OPENAI_REQUESTS_PER_MINUTE=${OPENAI_REQUESTS_PER_MINUTE} does not bind (8 at once of ${MODEL_MS} ms make ${MODEL_CEILING_PER_MINUTE}/min)`,
        },
      ]
      return {
        rows,
        detail: {
          sizes: { runs: total, accounts: accountCount, bigAccountRuns: bigRuns },
          setup: {
            workers: WORKERS,
            workerConcurrency: WORKER_CONCURRENCY,
            runsPerAccount: RUNS_PER_ACCOUNT,
            latency: { searchMs: SEARCH_MS, modelMs: MODEL_MS },
            limits: LIMITS,
            server: {
              EXA_REQUESTS_PER_SECOND: LIMITS.searchPerSecond,
              OPENAI_REQUESTS_PER_MINUTE,
              OPENAI_CONCURRENT_REQUESTS: LIMITS.modelConcurrency,
            },
            postsAtOnce: POSTS_AT_ONCE,
            order: 'shuffled from a fixed seed (createRng("monitors", runs, accounts))',
          },
          posting: {
            firstPost,
            lastPost,
            seconds: (lastPost - firstPost) / 1000,
            refused: refused.length,
            retried: retried.length,
            retries: retried.reduce((sum, run) => sum + run.tries - 1, 0),
          },
          runs: {
            completed: completed.length,
            failed: failedRuns.length,
            notEnded,
            failedReasons,
            failedReasonsSampled: Math.min(FAILED_SAMPLE, failedRuns.length),
          },
          makespanMs: makespan,
          floorMs: { search: searchFloor, model: modelFloor },
          fairness: {
            bigHalfDoneMs: bigHalfAt === undefined ? null : bigHalfAt - firstPost,
            bigCompleted: bigCompletions.length,
            smallLastStartMs: smallLastStart - firstPost,
            smallLastEndMs: smallLastEnd - firstPost,
            smallNeverStarted,
            smallAccountLastStartMs: [...lastStartByAccount.values()]
              .map((time) => time - firstPost)
              .sort((a, b) => a - b),
            bigStartMs: percentiles(
              big.flatMap((run) => (run.startedAt === undefined ? [] : [run.startedAt - firstPost])),
            ),
            smallStartMs: percentiles(smallStarts.map((time) => time - firstPost)),
          },
          warningsByStep: warnings,
          stubs: stats,
          cpuMs: cpu,
          peakRssBytes: peakRss,
        },
        failures,
      }
    } finally {
      await pool.end()
      await own.stop()
    }
  },
}

/**
 * Which account each run belongs to, in the order they are posted: account 0 has `bigRuns`, the
 * others share the rest as evenly as it divides; shuffled from a fixed seed.
 */
export function planRuns(total: number, accounts: number, bigRuns: number): Planned[] {
  const label = Date.now().toString(36)
  const runs: Planned[] = Array.from({ length: bigRuns }, (_, i) => ({ account: 0, topic: String(i) }))
  for (let i = 0; i < total - bigRuns; i++) runs.push({ account: 1 + (i % (accounts - 1)), topic: String(i) })
  return createRng('monitors', total, accounts)
    .shuffle(runs)
    .map((run) => ({ ...run, topic: `monitors ${label} account ${run.account} run ${run.topic}` }))
}

/**
 * A request with an account's key, sent again after Retry-After while it answers 429 (the server
 * checks at most two uncached keys at once per client address), POST_TRIES times at most.
 */
async function request(
  url: string,
  key: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown>; tries: number }> {
  for (let tries = 1; ; tries++) {
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${key}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    })
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (response.status !== 429 || tries >= POST_TRIES) return { status: response.status, body, tries }
    await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000)
  }
}

async function checkKey(url: string, key: string): Promise<void> {
  const { status } = await request(`${url}/api/me`, key)
  if (status !== 200) throw new Error(`GET /api/me answered ${status}`)
}

/** POST /api/briefs for a quick run. */
async function postBrief(
  url: string,
  key: string,
  topic: string,
): Promise<{ runId?: string; error?: string; tries: number }> {
  const { status, body, tries } = await request(`${url}/api/briefs`, key, {
    method: 'POST',
    body: { topic, depth: 'quick' },
  })
  if (status === 202 && typeof body.runId === 'string') return { runId: body.runId, tries }
  return { error: `POST /api/briefs answered ${status}: ${JSON.stringify(body)}`, tries }
}

function cpuOf(own: {
  server: { cpuMs: () => { server: number; postgres: number } }
  workers: Array<{ cpuMs: () => number }>
}) {
  const { server: web, postgres } = own.server.cpuMs()
  const workers = own.workers.reduce((total, worker) => total + worker.cpuMs(), 0)
  return { server: web + workers, web, postgres }
}

/** The failed runs' error codes, read back through the API (the error is sealed in the database). */
async function reasonsOf<Run extends { id: string }>(
  url: string,
  runs: Run[],
  keyOf: (run: Run) => string,
): Promise<Record<string, number>> {
  const reasons: Record<string, number> = {}
  let next = 0
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < runs.length) {
        const run = runs[next++] as Run
        const { status, body } = await request(`${url}/api/briefs/${run.id}`, keyOf(run))
        const code =
          status === 200 ? String((body.error as { code?: string } | undefined)?.code ?? 'none') : `GET ${status}`
        reasons[code] = (reasons[code] ?? 0) + 1
      }
    }),
  )
  return reasons
}

function describeReasons(reasons: Record<string, number>, failed: number): string {
  const sampled = Object.values(reasons).reduce((sum, count) => sum + count, 0)
  const list = Object.entries(reasons)
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => `${code} ${count}`)
    .join(', ')
  return sampled < failed ? `of ${sampled} read: ${list}` : list
}

function percentiles(values: number[]) {
  return { p50: percentile(values, 50), p90: percentile(values, 90), max: percentile(values, 100) }
}

// Starting runs and waiting for them, the way an API client polls; or queueing a run's row as a
// start writes it, with no job, for tests of what a worker's take does with it.
import { expect } from 'vitest'
import type { Report } from '#server/research/report-types.ts'
import { createRun } from '#server/runs/record.ts'
import { createRunSeals } from '#server/runs/repository/runs.ts'
import type { Sextant } from '#server/start.ts'
import { type BriefInput, BriefSchema } from '#server/vocabulary/brief.ts'

type Fetcher = (path: string, init?: RequestInit) => Promise<Response>

export type RunBody = {
  runId: string
  status: string
  currentStep: string | null
  finishedAt: string | null
  brief?: Record<string, unknown>
  report?: Report
  error?: { code: string; message: string }
}

export async function postBrief(fetcher: Fetcher, auth: Record<string, string>, brief: BriefInput) {
  const response = await fetcher('/api/briefs', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(brief),
  })
  return { response, body: await response.json() }
}

/** Polls GET /api/briefs/{id} until the run is complete, failed or cancelled. */
export async function waitForRun(fetcher: Fetcher, auth: Record<string, string>, runId: string, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const body = (await (await fetcher(`/api/briefs/${runId}`, { headers: auth })).json()) as RunBody
    if (body.status !== 'running') return body
    if (performance.now() > deadline)
      throw new Error(`run ${runId} still running after ${timeoutMs} ms (step ${body.currentStep})`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Every [n] in the report's markdown and delta points at one of its sources. */
export function expectCitationsResolve(report: Report) {
  const numbers = new Set(report.sources.map((source) => source.n))
  const cited = [...`${report.summary}\n${report.delta.summary}`.matchAll(/\[(\d+)\]/g)].map((match) =>
    Number(match[1]),
  )
  for (const n of cited) expect(numbers.has(n), `[${n}] points at no source`).toBe(true)
  for (const finding of report.delta.newFindings) for (const n of finding.sources) expect(numbers.has(n)).toBe(true)
}

/**
 * A quick run's row as a start writes it, and no job: due to end `deadlineInSeconds` from now (the
 * queue's time and its own), with its own limit of `limitSeconds` once a worker takes it.
 */
export function queueRunRow(
  app: Pick<Sextant, 'db' | 'ring' | 'memory'>,
  accountId: string,
  topic: string,
  { deadlineInSeconds, limitSeconds }: { deadlineInSeconds: number; limitSeconds: number },
): Promise<string> {
  return createRun(app.db, createRunSeals(app.ring), {
    accountId,
    brief: BriefSchema.parse({ topic, depth: 'quick' }),
    topicHash: app.memory.topicIndex.hash(accountId, topic),
    hasMemory: false,
    priorRunCount: 0,
    deadlineAt: new Date(Date.now() + deadlineInSeconds * 1000),
    timeLimitSeconds: limitSeconds,
  })
}

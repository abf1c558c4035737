// A run's sealed columns open by their stored shapes: every version's, read as they were written, and
// nothing of another shape handed on as the type it is said to be.
import { expect, test } from 'vitest'
import { generateKeySpec, parseKeyRing, seal, sealJson, UnreadableError } from '#server/crypto/key-ring.ts'
import { upgradeReport } from '#server/research/report-types.ts'
import { createRunSeals, type RunRow } from '#server/runs/repository/runs.ts'

const ring = parseKeyRing(generateKeySpec('runs'))
const seals = createRunSeals(ring)
const RUN = 'run-1'

/** A row whose report is `value`, sealed as the code before the codecs sealed it. */
const withReport = (value: unknown) => {
  const sealed = sealJson(ring, value, `run_report:${RUN}`)
  return { id: RUN, report_key_id: sealed.keyId, report: sealed.ciphertext } as Pick<
    RunRow,
    'id' | 'report_key_id' | 'report'
  >
}

// As the first runs stored them: no quotes, no updated or contradicted, no integrity.
const FIRST_REPORT = {
  summary: '## Tides',
  delta: { baseline: true, since: null, newFindings: [{ text: 'High tide at 6', sources: [1] }], summary: 'New' },
  sources: [{ n: 1, url: 'https://tides.example/', title: 'Tides', publishedAt: null, snippet: '' }],
  generatedWith: { synthesis: 'old', synthesisKind: 'model', search: 'exa', plan: 'model' },
  usage: { inputTokens: 0, outputTokens: 0, searchCalls: 1, costDollars: null },
}

test('a report stored by the first version opens, and reads in today’s shape', () => {
  const stored = seals.report(withReport(FIRST_REPORT))
  expect(stored).toBeDefined()
  const report = upgradeReport(stored as NonNullable<typeof stored>)
  expect(report.delta).toMatchObject({ updated: [], contradicted: [], confirmed: 0 })
  expect(report.delta.newFindings).toEqual([{ text: 'High tide at 6', quote: '', sources: [1] }])
  expect(report.integrity).toEqual({ claims: 1, shown: 1, droppedUnsupported: 0, recited: 0, ownWords: 0, offTopic: 0 })
})

test('a report sealed today opens as it was sealed; none stored is none', () => {
  const report = upgradeReport(FIRST_REPORT as Parameters<typeof upgradeReport>[0])
  const sealed = seals.sealReport(report, RUN)
  expect(seals.report({ id: RUN, report_key_id: sealed.keyId, report: sealed.ciphertext })).toEqual(report)
  expect(seals.report({ id: RUN, report_key_id: null, report: null })).toBeUndefined()
})

test('a report of another shape is refused where it is read, naming the column', () => {
  expect(() => seals.report(withReport({ ...FIRST_REPORT, sources: 'tides.example' }))).toThrow(UnreadableError)
  expect(() => seals.report(withReport({ summary: 3 }))).toThrow(/runs\.report is not the shape this version stores/)
})

test('a brief and an error sealed before the codecs open with them; another run’s do not', () => {
  const brief = sealJson(ring, { topic: 'tides', depth: 'quick', source: 'slack' }, `run_brief:${RUN}`)
  expect(seals.brief({ id: RUN, brief_key_id: brief.keyId, brief: brief.ciphertext })).toMatchObject({
    topic: 'tides',
    depth: 'quick',
    source: 'slack',
    timeframe: '30d',
  })
  expect(() => seals.brief({ id: 'run-2', brief_key_id: brief.keyId, brief: brief.ciphertext })).toThrow(
    UnreadableError,
  )
  expect(() => seals.brief({ id: RUN, brief_key_id: null, brief: null })).toThrow(/no sealed brief/)
  const error = sealJson(ring, { code: 'timeout', message: 'ran out of time' }, `run_error:${RUN}`)
  expect(seals.error({ id: RUN, error_key_id: error.keyId, error: error.ciphertext })).toEqual({
    code: 'timeout',
    message: 'ran out of time',
  })
  expect(seals.error({ id: RUN, error_key_id: null, error: null })).toBeUndefined()
})

test('a checkpoint is given back as the JSON the engine sealed; an event’s data as its record', () => {
  const sealed = seal(ring, Buffer.from('{"plan":{"queries":["tides"]}}'), `run_checkpoint:${RUN}`)
  expect(seals.checkpoint({ id: RUN, checkpoint_key_id: sealed.keyId, checkpoint: sealed.ciphertext })).toBe(
    '{"plan":{"queries":["tides"]}}',
  )
  const data = seals.event.seal({ query: 'tides' }, RUN, 'query_done')
  expect(seals.event.open(data, RUN, 'query_done')).toEqual({ query: 'tides' })
  expect(() => seals.event.open(data, RUN, 'query_failed')).toThrow(UnreadableError)
})

// What must hold after any fault, however the run ended: one run row, no step finished twice, exactly
// one final event and nothing after it, and topic memory that loads, with nothing in it twice.
import { expect } from 'vitest'
import type { Db } from '#db/database.ts'
import { canonicalUrl } from '#server/text/canonical-url.ts'
import { factId } from '#server/topics/merge.ts'
import { loadTopicMemory, type MemoryContext } from '#server/topics/store.ts'
import { FINAL_EVENT_TYPES } from '#server/vocabulary/runs.ts'

export async function expectRunIntegrity(db: Db, runId: string): Promise<void> {
  const runs = await db.selectFrom('runs').select(['status', 'checkpoint']).where('id', '=', runId).execute()
  expect(runs).toHaveLength(1)
  expect(runs[0]?.status).not.toBe('running')
  expect(runs[0]?.checkpoint, 'an ended run keeps no checkpoint').toBeNull()
  const events = await db
    .selectFrom('run_events')
    .select(['type', 'step'])
    .where('run_id', '=', runId)
    .orderBy('id')
    .execute()
  const finished = events.filter((event) => event.type === 'step_finished').map((event) => event.step)
  expect(finished, 'a step finished twice').toEqual([...new Set(finished)])
  const finals = events.filter((event) => (FINAL_EVENT_TYPES as readonly string[]).includes(event.type))
  expect(finals, 'exactly one final event').toHaveLength(1)
  expect(events.at(-1)?.type, 'nothing after the final event').toBe(finals[0]?.type)
  expect(events.filter((event) => event.type === 'run_started')).toHaveLength(1)
}

/** Loads the topic's memory and checks nothing in it is doubled; returns it for comparisons. */
export async function loadIntactMemory(memory: MemoryContext, accountId: string, topic: string) {
  const loaded = await loadTopicMemory(memory, accountId, topic)
  if (!loaded) return undefined
  const ids = loaded.facts.map((fact) => factId(fact.text))
  expect(ids, 'a fact is stored twice').toEqual([...new Set(ids)])
  const sources = loaded.sources.map((source) => canonicalUrl(source.url))
  expect(sources, 'a source is stored twice').toEqual([...new Set(sources)])
  const ledger = loaded.ledger.map((entry) => entry.url)
  expect(ledger, 'a URL is in the ledger twice').toEqual([...new Set(ledger)])
  const runIds = loaded.runs.map((run) => run.runId)
  expect(runIds, 'a run is in the history twice').toEqual([...new Set(runIds)])
  // Facts a later run updated or contradicted are kept as history, not counted as held.
  expect(loaded.factsStored).toBe(loaded.facts.filter((fact) => !fact.supersededBy).length)
  expect(loaded.urlsIndexed).toBe(loaded.ledger.length)
  return loaded
}

/** The parts of memory a fault must not change, in a form `toEqual` compares. */
export function memoryFingerprint(memory: Awaited<ReturnType<typeof loadIntactMemory>>) {
  if (!memory) return undefined
  return {
    facts: memory.facts.map((fact) => fact.text).sort(),
    sources: memory.sources.map((source) => source.url).sort(),
    ledger: memory.ledger.map((entry) => entry.url).sort(),
    runs: memory.runs.map((run) => run.runId).sort(),
  }
}

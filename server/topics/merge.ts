// Folds one run's findings into a topic's memory. Pure and deterministic: every time comes from
// the contribution, so a retried save computes the same result as the first attempt.
import { createHash } from 'node:crypto'
import { canonicalUrl } from '#server/text/canonical-url.ts'
import { displayTopic, topicKey } from '#server/text/topic-key.ts'
import {
  FACT_CAP,
  type Fact,
  type FirstSeen,
  LEDGER_CAP,
  type LedgerEntry,
  type MemoryContent,
  type MemoryContribution,
  RUN_HISTORY_CAP,
  RUN_THREAD_CAP,
  type RunRecord,
  type Source,
} from '#server/topics/contract.ts'
import { READING } from '#server/topics/facts.ts'

export type MergeResult = { content: MemoryContent; added: { facts: number; sources: number } }

const TRAILING_PUNCTUATION = /[\s\p{P}]+$/u
const THREAD_LINE_CHARS = 300

/**
 * A fact's stable id. It uses the topic key's folding (NFKC, case, spacing) so that "Sales rose."
 * and "sales  rose" from two runs are one fact; changing either normalization splits stored facts.
 */
export function factId(text: string): string {
  return createHash('sha256').update(normalizeFact(text)).digest('hex').slice(0, 16)
}

function normalizeFact(text: string): string {
  return topicKey(text).replace(TRAILING_PUNCTUATION, '')
}

export function mergeMemory(
  existing: MemoryContent | undefined,
  contribution: MemoryContribution,
  topic: string,
  cap = FACT_CAP,
): MergeResult {
  // A retried save of a run already merged must not count its facts, sources or run twice.
  if (existing?.runs.some((run) => run.runId === contribution.runId)) {
    return { content: existing, added: { facts: 0, sources: 0 } }
  }
  const at = contribution.at.toISOString()
  const firstSeen: FirstSeen = { runId: contribution.runId, at }
  const facts = mergeFacts(withVectors(existing, contribution.vectors), contribution.facts, firstSeen, cap)
  const sources = mergeSources(existing?.sources ?? [], contribution.sources, firstSeen)
  const urlsRead = canonicalUrls(contribution.urlsRead)
  const run: RunRecord = {
    runId: contribution.runId,
    at,
    newFacts: facts.added,
    confirmedFacts: facts.confirmed,
    newSources: sources.added,
    urlsRead: urlsRead.length,
    summary: contribution.summary,
    ...(contribution.queries?.length ? { queries: threadOf(contribution.queries) } : {}),
    ...(contribution.openQuestions?.length ? { openQuestions: threadOf(contribution.openQuestions) } : {}),
  }
  return {
    content: {
      topic: existing?.topic ?? displayTopic(topic),
      facts: facts.merged,
      sources: sources.merged,
      ledger: mergeLedger(existing?.ledger ?? [], urlsRead, at),
      runs: mergeRuns(existing?.runs ?? [], run),
      ...(contribution.vectors || existing?.vectorModel
        ? { vectorModel: contribution.vectors?.model ?? existing?.vectorModel }
        : {}),
    },
    added: { facts: facts.added, sources: sources.added },
  }
}

/**
 * Folds a run's classified claims into the facts: a confirmed one moves its fact's last-confirmed time
 * and adds its sources; an update or contradiction enters as a new fact that supersedes the old one
 * (kept as history); a new one is added. Past the cap, history goes first, then the facts unconfirmed
 * longest.
 */
function mergeFacts(
  existing: Fact[],
  incoming: MemoryContribution['facts'],
  firstSeen: FirstSeen,
  cap: number,
): { merged: Fact[]; added: number; confirmed: number } {
  const byId = new Map(existing.map((fact) => [fact.id, fact]))
  let added = 0
  let confirmed = 0
  for (const claim of incoming) {
    const text = claim.text.trim()
    if (normalizeFact(text) === '') continue
    const urls = canonicalUrls(claim.sourceUrls)
    const target = claim.change.class === 'new' ? undefined : byId.get(claim.change.factId)
    const id = factId(text)
    const same = byId.get(id)
    if ((claim.change.class === 'confirmed' && target) || same) {
      const fact = (claim.change.class === 'confirmed' && target) || (same as Fact)
      byId.set(fact.id, {
        ...fact,
        sourceUrls: unique([...fact.sourceUrls, ...urls]),
        lastConfirmed: maxTime(fact.lastConfirmed, firstSeen.at),
      })
      confirmed += 1
      continue
    }
    const fact: Fact = {
      id,
      text,
      quote: claim.quote,
      sourceUrls: urls,
      statements: claim.statements,
      subject: claim.subject,
      polarity: claim.polarity,
      readWith: READING,
      firstSeen,
      lastConfirmed: firstSeen.at,
      ...(claim.vector ? { vector: claim.vector } : {}),
    }
    if (target && claim.change.class !== 'new' && claim.change.class !== 'confirmed') {
      fact.supersedes = { id: target.id, change: claim.change.class }
      byId.set(target.id, { ...target, supersededBy: id })
    }
    byId.set(id, fact)
    added += 1
  }
  const facts = [...byId.values()]
  if (facts.length > cap) {
    // What a fact replaced goes before any fact memory holds as current: losing it loses only the "was"
    // beside an update, where losing a current fact would report it as news again. Then the unconfirmed
    // longest; among equals the older; the order of the rest is kept.
    const keep = new Set(
      [...facts]
        .sort(
          (x, y) =>
            Number(Boolean(x.supersededBy)) - Number(Boolean(y.supersededBy)) ||
            compareStrings(y.lastConfirmed, x.lastConfirmed) ||
            compareStrings(y.firstSeen.at, x.firstSeen.at),
        )
        .slice(0, cap)
        .map((fact) => fact.id),
    )
    return { merged: facts.filter((fact) => keep.has(fact.id)), added, confirmed }
  }
  return { merged: facts, added, confirmed }
}

/** Memory's facts with this run's vectors; another model's vectors are dropped, never compared. */
function withVectors(existing: MemoryContent | undefined, vectors: MemoryContribution['vectors']): Fact[] {
  const facts = existing?.facts ?? []
  if (!vectors) return facts
  const sameModel = existing?.vectorModel === vectors.model
  return facts.map((fact) => {
    const vector = vectors.byFact[fact.id] ?? (sameModel ? fact.vector : undefined)
    const { vector: _, ...rest } = fact
    return vector ? { ...rest, vector } : rest
  })
}

/** A run's queries or open questions as memory keeps them: a few, each a line. */
function threadOf(lines: string[]): string[] {
  return lines
    .map((line) => line.replace(/\s+/g, ' ').trim().slice(0, THREAD_LINE_CHARS))
    .filter(Boolean)
    .slice(0, RUN_THREAD_CAP)
}

function maxTime(a: string, b: string): string {
  return a > b ? a : b
}

function mergeSources(
  existing: Source[],
  incoming: MemoryContribution['sources'],
  firstSeen: FirstSeen,
): { merged: Source[]; added: number } {
  const byUrl = new Map(existing.map((source) => [source.url, source]))
  let added = 0
  for (const source of incoming) {
    const url = canonicalUrl(source.url)
    if (url === undefined) continue
    const title = source.title.trim()
    const known = byUrl.get(url)
    if (known) {
      // What was recorded first wins; a later run only fills in what was missing.
      byUrl.set(url, {
        ...known,
        title: known.title === '' ? title : known.title,
        publishedDate: known.publishedDate ?? source.publishedDate,
      })
    } else {
      byUrl.set(url, { url, title, publishedDate: source.publishedDate, firstSeen })
      added += 1
    }
  }
  return { merged: [...byUrl.values()], added }
}

/**
 * Keeps the most recently read URLs, so the ledger follows what the topic is reading now (the old
 * product kept the oldest 500 and stopped recording anything new). ISO-8601 UTC strings from
 * `toISOString()` sort as text in time order.
 */
function mergeLedger(existing: LedgerEntry[], urlsRead: string[], at: string): LedgerEntry[] {
  const readAt = new Map(existing.map((entry) => [entry.url, entry.readAt]))
  for (const url of urlsRead) {
    const previous = readAt.get(url)
    if (previous === undefined || previous < at) readAt.set(url, at)
  }
  return [...readAt]
    .map(([url, time]) => ({ url, readAt: time }))
    .sort((a, b) => compareStrings(b.readAt, a.readAt) || compareStrings(a.url, b.url))
    .slice(0, LEDGER_CAP)
}

/** Newest first by time, so a late save of an earlier run does not push out newer history. */
function mergeRuns(existing: RunRecord[], run: RunRecord): RunRecord[] {
  return [run, ...existing]
    .sort((a, b) => compareStrings(b.at, a.at) || compareStrings(a.runId, b.runId))
    .slice(0, RUN_HISTORY_CAP)
}

function canonicalUrls(raw: string[]): string[] {
  return unique(raw.map(canonicalUrl).filter((url) => url !== undefined))
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

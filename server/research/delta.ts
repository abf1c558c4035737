// From a synthesis to what changed: its claims verified against the pages (server/claims/verify.ts),
// then classified against the topic's memory (server/claims/classify.ts), with the model as judge
// when there is one. The result feeds both the report and the memory save; the sentences a synthesis
// remembers beside its report (the extractive path's) feed the memory save, and the report when news.

import { setImmediate } from 'node:timers/promises'
import {
  type ClaimClass,
  classifyClaims,
  type Judge,
  type KnownClaim,
  type PairJudge,
} from '#server/claims/classify.ts'
import { foldVector, packVector, unpackVector } from '#server/claims/vectors.ts'
import {
  draftWords,
  type Integrity,
  MAX_CLAIMS_CHECKED,
  type VerifiedClaim,
  verifyClaims,
} from '#server/claims/verify.ts'
import {
  type LanguageModel,
  type SourceForSynthesis,
  type Synthesis,
  type Usage,
  usageOf,
} from '#server/providers/types.ts'
import type { PreviousClaim } from '#server/research/report-types.ts'
import type { ContributedFact, Fact, MemoryContribution, TopicMemory } from '#server/topics/contract.ts'

/** Claims judged per model call: a long answer is cut off, and a short one costs a call each. */
const JUDGE_BATCH = 40

/** A verified claim of this run, classified against memory: what a report is built from (report.ts). */
export type ReportClaim = {
  text: string
  /** The supporting words, as the page writes them. */
  quote: string
  /** Synthesis numbering; every one of these pages holds the quote. */
  sourceIds: number[]
  class: ClaimClass
  /** For updated and contradicted: what memory held. */
  previous?: PreviousClaim
  /** For new: a memory claim about the same thing that the rules could not tell apart from it. */
  memoryHeld?: PreviousClaim
}

export type RunClaims = {
  claims: ReportClaim[]
  facts: ContributedFact[]
  vectors?: MemoryContribution['vectors']
  integrity: Integrity
  usage: Usage
  /** Why embeddings were not used, when a model offers them and they failed. */
  embeddingsFailed?: string
}

/** Facts of memory embedded in one run when they have no vector yet (memory from before embeddings). */
const MAX_BACKFILL = 2000
const EMBED_BATCH = 256

type KnownFact = Omit<Fact, 'vector'> & KnownClaim

export async function classifyRunClaims(
  deps: { model: LanguageModel },
  input: {
    topic: string
    /** The topic's memory as the run's synthesis read it; absent on a first run. */
    memory: TopicMemory | undefined
    synthesis: Synthesis
    sources: SourceForSynthesis[]
    /**
     * The ids of the sources about the topic (research/topicality.ts): a claim whose every page is
     * about something else is not shown, whatever wrote it, as a model told so may still report what
     * a page that shares a word with the topic says.
     */
    onTopic: ReadonlySet<number>
    signal: AbortSignal
  },
): Promise<RunClaims> {
  const memory = input.memory
  const current = (memory?.facts ?? []).filter((fact) => !fact.supersededBy)
  const usage: Usage = { inputTokens: 0, outputTokens: 0 }
  // The embeddings are asked for while the claims are checked, which takes a deep run's synthesis
  // tens of milliseconds: a checked claim keeps its draft's words unless it is shown in its quote's,
  // and only those are embedded after the check.
  const drafts = input.synthesis.findings.slice(0, MAX_CLAIMS_CHECKED)
  const texts = [...new Set(drafts.map(draftWords).filter((text) => text !== ''))]
  const early = embedTexts(deps.model, texts, current, memory?.vectorModel, input.signal, usage)
  // The request goes out before the check takes the thread: the SDK's fetch writes it on the second
  // turn of the event loop after the call (one turn was measured not to be enough).
  if (early.asked) for (let turn = 0; turn < 2; turn++) await setImmediate()
  const checked = verifyClaims(input.synthesis.findings, input.sources)
  const verified = checked.claims.filter((claim) => claim.sourceIds.some((id) => input.onTopic.has(id)))
  const offTopic = checked.claims.length - verified.length
  const integrity = { ...checked.integrity, shown: checked.integrity.shown - offTopic, offTopic }
  // What the report leaves out and memory keeps: each a page's own sentence, so checked only for that.
  const remembered = verifyClaims(input.synthesis.remembered ?? [], input.sources).claims.filter((claim) =>
    claim.sourceIds.some((id) => input.onTopic.has(id)),
  )
  const embedded = await embedClaims(deps.model, verified, await early.answer, input.signal, usage)
  const known: KnownFact[] = current.map(({ vector, ...fact }) => ({
    ...fact,
    vector: unpackVector(embedded.vectors?.byFact[fact.id] ?? (embedded.sameModel ? vector : undefined)),
  }))
  const options = { signal: input.signal, topic: input.topic }
  const judge: Judge | undefined = deps.model.judgeClaims
    ? ({ memory, items }) =>
        inBatches(items, usage, (batch) => deps.model.judgeClaims?.({ memory, items: batch }, options))
    : undefined
  const secondReading: PairJudge | undefined = deps.model.judgePairs
    ? ({ pairs }) => inBatches(pairs, usage, (batch) => deps.model.judgePairs?.({ pairs: batch }, options))
    : undefined
  const withVectors = verified.map((claim, index) => ({ ...claim, vector: embedded.claims[index] }))
  const all = await classifyClaims([...withVectors, ...remembered], known, judge, secondReading)
  // A sentence memory keeps beside the report is shown when it changes a figure or a date memory
  // held: that is news. A reversal the rules read in it alone is not asserted, nor kept.
  const classified = all.filter((item, index) => index < verified.length || item.class === 'updated')
  const kept = all.filter((item, index) => index < verified.length || item.class !== 'contradicted')
  integrity.claims += classified.length - verified.length
  integrity.shown += classified.length - verified.length
  input.signal.throwIfAborted()

  const urlOf = new Map(input.sources.map((source) => [source.id, source.url]))
  const held = (fact: KnownFact): PreviousClaim => ({
    text: fact.text,
    seenAt: fact.lastConfirmed,
    urls: fact.sourceUrls,
  })
  const claims: ReportClaim[] = classified.map(({ claim, class: kind, match, related }) => ({
    text: claim.text,
    quote: claim.quote,
    sourceIds: claim.sourceIds,
    class: kind,
    previous: match && kind !== 'confirmed' ? held(match) : undefined,
    ...(related && kind === 'new' ? { memoryHeld: held(related) } : {}),
  }))
  // The report's claims come first in `kept`, in order: each has its embedding at its index.
  const facts: ContributedFact[] = kept.map(({ claim, class: kind, match }, index) => ({
    text: claim.text,
    quote: claim.quote,
    sourceUrls: claim.sourceIds.flatMap((id) => urlOf.get(id) ?? []),
    statements: claim.statements,
    subject: claim.subject,
    polarity: claim.polarity,
    change: kind === 'new' || !match ? { class: 'new' } : { class: kind, factId: match.id },
    ...(embedded.claims[index] ? { vector: packVector(embedded.claims[index]) } : {}),
  }))
  return { claims, facts, vectors: embedded.vectors, integrity, usage, embeddingsFailed: embedded.failed }
}

type Embedded = {
  sameModel: boolean
  /** Each text asked for with its vector, and the facts' packed; absent when none was asked for or the call failed. */
  found?: { byText: Map<string, number[]>; byFact: Record<string, string> }
  failed?: string
}

/**
 * Embeddings of `texts` (a run's claims), and of memory's facts that have none from this model, when
 * the model offers them. A failure is not the run's: claims are then matched by their words alone.
 */
function embedTexts(
  model: LanguageModel,
  texts: string[],
  facts: Fact[],
  vectorModel: string | undefined,
  signal: AbortSignal,
  usage: Usage,
): { asked: boolean; answer: Promise<Embedded> } {
  const sameModel = vectorModel === model.embeddingModel
  if (!model.embed || !model.embeddingModel || texts.length === 0) {
    return { asked: false, answer: Promise.resolve({ sameModel }) }
  }
  const missing = facts.filter((fact) => !sameModel || !fact.vector).slice(0, MAX_BACKFILL)
  const answer = embedAll(model, [...texts, ...missing.map((fact) => fact.text)], signal, usage).then(
    (vectors) => {
      const byFact: Record<string, string> = {}
      missing.forEach((fact, index) => {
        byFact[fact.id] = packVector(vectors[texts.length + index] as number[])
      })
      const byText = new Map(texts.map((text, index) => [text, vectors[index] as number[]]))
      return { sameModel, found: { byText, byFact } }
    },
    (error: unknown) => {
      signal.throwIfAborted()
      return { sameModel, failed: (error as Error).message }
    },
  )
  // Awaited after the check; a rejection meanwhile (the run cancelled) must not go unhandled.
  answer.catch(() => undefined)
  return { asked: true, answer }
}

/** The checked claims' vectors: from the texts embedded during the check, and the rest asked for now. */
async function embedClaims(
  model: LanguageModel,
  claims: VerifiedClaim[],
  early: Embedded,
  signal: AbortSignal,
  usage: Usage,
): Promise<{
  claims: Array<number[] | undefined>
  vectors?: RunClaims['vectors']
  sameModel: boolean
  failed?: string
}> {
  const { sameModel, found, failed } = early
  if (failed) return { claims: [], sameModel, failed }
  if (!found || !model.embeddingModel || claims.length === 0) return { claims: [], sameModel }
  const { byText, byFact } = found
  const later = [...new Set(claims.map((claim) => claim.text).filter((text) => !byText.has(text)))]
  try {
    const vectors = later.length > 0 ? await embedAll(model, later, signal, usage) : []
    for (const [index, text] of later.entries()) byText.set(text, vectors[index] as number[])
  } catch (error) {
    signal.throwIfAborted()
    return { claims: [], sameModel, failed: (error as Error).message }
  }
  return {
    claims: claims.map((claim) => foldVector(byText.get(claim.text) as number[])),
    vectors: { model: model.embeddingModel, byFact },
    sameModel,
  }
}

async function embedAll(model: LanguageModel, texts: string[], signal: AbortSignal, usage: Usage) {
  const vectors: number[][] = []
  for (let start = 0; start < texts.length; start += EMBED_BATCH) {
    const answer = await (model.embed as NonNullable<LanguageModel['embed']>)(texts.slice(start, start + EMBED_BATCH), {
      signal,
    })
    usage.inputTokens += answer.usage.inputTokens
    vectors.push(...answer.vectors)
  }
  return vectors
}

/**
 * Asks the model about `items` JUDGE_BATCH at a time, counting each answer's tokens in `usage`, a
 * failed answer's too (the rules then decide: classify.ts); verdicts are numbered over all items.
 */
async function inBatches<T, V extends { index: number }>(
  items: T[],
  usage: Usage,
  ask: (batch: T[]) => Promise<{ verdicts: V[]; usage: Usage }> | undefined,
): Promise<V[]> {
  const verdicts: V[] = []
  for (let start = 0; start < items.length; start += JUDGE_BATCH) {
    const answer = await ask(items.slice(start, start + JUDGE_BATCH))?.catch((error: unknown) => {
      // An unusable answer was still paid for.
      usage.inputTokens += usageOf(error).inputTokens
      usage.outputTokens += usageOf(error).outputTokens
      throw error
    })
    if (!answer) break
    usage.inputTokens += answer.usage.inputTokens
    usage.outputTokens += answer.usage.outputTokens
    verdicts.push(...answer.verdicts.map((verdict) => ({ ...verdict, index: verdict.index + start })))
  }
  return verdicts
}

// From a synthesis to what changed: its claims verified against the pages (server/claims/verify.ts),
// then classified against the topic's memory (server/claims/classify.ts), with the model as judge
// when there is one. The result feeds both the report and the memory save.
import { type ClaimClass, classifyClaims, type Judge, type KnownClaim } from '#server/claims/classify.ts'
import { foldVector, packVector, unpackVector } from '#server/claims/vectors.ts'
import { type Integrity, type VerifiedClaim, verifyClaims } from '#server/claims/verify.ts'
import type { ContributedFact, Fact, MemoryContribution, TopicMemory } from '#server/memory/types.ts'
import {
  type LanguageModel,
  type SourceForSynthesis,
  type Synthesis,
  type Usage,
  usageOf,
} from '#server/providers/types.ts'
import type { PreviousClaim } from '#server/research/report-types.ts'

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
    signal: AbortSignal
  },
): Promise<RunClaims> {
  const { claims: verified, integrity } = verifyClaims(input.synthesis.findings, input.sources)
  const memory = input.memory
  const current = (memory?.facts ?? []).filter((fact) => !fact.supersededBy)
  const usage: Usage = { inputTokens: 0, outputTokens: 0 }
  const embedded = await embedClaims(deps.model, verified, current, memory?.vectorModel, input.signal, usage)
  const known: KnownFact[] = current.map(({ vector, ...fact }) => ({
    ...fact,
    vector: unpackVector(embedded.vectors?.byFact[fact.id] ?? (embedded.sameModel ? vector : undefined)),
  }))
  const judge: Judge | undefined = deps.model.judgeClaims
    ? async (items) => {
        const verdicts = []
        for (let start = 0; start < items.length; start += JUDGE_BATCH) {
          const answer = await deps.model
            .judgeClaims?.(items.slice(start, start + JUDGE_BATCH), { signal: input.signal, topic: input.topic })
            .catch((error: unknown) => {
              // The rules decide instead (classify.ts), but an unusable answer was still paid for.
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
    : undefined
  const withVectors = verified.map((claim, index) => ({ ...claim, vector: embedded.claims[index] }))
  const classified = await classifyClaims(withVectors, known, known.length > 0 ? judge : undefined)
  input.signal.throwIfAborted()

  const urlOf = new Map(input.sources.map((source) => [source.id, source.url]))
  const claims: ReportClaim[] = classified.map(({ claim, class: kind, match }) => ({
    text: claim.text,
    quote: claim.quote,
    sourceIds: claim.sourceIds,
    class: kind,
    previous:
      match && kind !== 'confirmed'
        ? { text: match.text, seenAt: match.lastConfirmed, urls: match.sourceUrls }
        : undefined,
  }))
  const facts: ContributedFact[] = classified.map(({ claim, class: kind, match }, index) => ({
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

/**
 * Embeddings of the run's claims, and of memory's facts that have none from this model, when the
 * model offers them. A failure is not the run's: claims are then matched by their words alone.
 */
async function embedClaims(
  model: LanguageModel,
  claims: VerifiedClaim[],
  facts: Fact[],
  vectorModel: string | undefined,
  signal: AbortSignal,
  usage: Usage,
): Promise<{
  claims: Array<number[] | undefined>
  vectors?: RunClaims['vectors']
  sameModel: boolean
  failed?: string
}> {
  const sameModel = vectorModel === model.embeddingModel
  if (!model.embed || !model.embeddingModel || claims.length === 0) return { claims: [], sameModel }
  const missing = facts.filter((fact) => !sameModel || !fact.vector).slice(0, MAX_BACKFILL)
  const texts = [...claims.map((claim) => claim.text), ...missing.map((fact) => fact.text)]
  try {
    const vectors: number[][] = []
    for (let start = 0; start < texts.length; start += EMBED_BATCH) {
      const answer = await model.embed(texts.slice(start, start + EMBED_BATCH), { signal })
      usage.inputTokens += answer.usage.inputTokens
      vectors.push(...answer.vectors)
    }
    const byFact: Record<string, string> = {}
    missing.forEach((fact, index) => {
      byFact[fact.id] = packVector(vectors[claims.length + index] as number[])
    })
    return {
      claims: vectors.slice(0, claims.length).map((vector) => foldVector(vector)),
      vectors: { model: model.embeddingModel, byFact },
      sameModel,
    }
  } catch (error) {
    signal.throwIfAborted()
    return { claims: [], sameModel, failed: (error as Error).message }
  }
}

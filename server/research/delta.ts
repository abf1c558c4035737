// From a synthesis to what changed: its claims verified against the pages (server/claims/verify.ts),
// then classified against the topic's memory (server/claims/classify.ts), with the model as judge
// when there is one. The result feeds both the report and the memory save.
import { classifyClaims, type Judge, type KnownClaim } from '#server/claims/classify.ts'
import { type Integrity, verifyClaims } from '#server/claims/verify.ts'
import { loadTopicMemory, type MemoryContext } from '#server/memory/store.ts'
import type { ContributedFact, Fact } from '#server/memory/types.ts'
import type { LanguageModel, SourceForSynthesis, Synthesis, Usage } from '#server/providers/types.ts'
import type { ReportClaim } from '#server/research/report.ts'

/** Claims judged per model call: a long answer is cut off, and a short one costs a call each. */
const JUDGE_BATCH = 40

export type RunClaims = { claims: ReportClaim[]; facts: ContributedFact[]; integrity: Integrity; usage: Usage }

export async function classifyRunClaims(
  deps: { memory: MemoryContext; model: LanguageModel },
  input: {
    accountId: string
    topic: string
    baseline: boolean
    synthesis: Synthesis
    sources: SourceForSynthesis[]
    signal: AbortSignal
  },
): Promise<RunClaims> {
  const { claims: verified, integrity } = verifyClaims(input.synthesis.findings, input.sources)
  const memory = input.baseline ? undefined : await loadTopicMemory(deps.memory, input.accountId, input.topic)
  const known: Array<Fact & KnownClaim> = (memory?.facts ?? []).filter((fact) => !fact.supersededBy)
  const usage: Usage = { inputTokens: 0, outputTokens: 0 }
  const judge: Judge | undefined = deps.model.judgeClaims
    ? async (items) => {
        const verdicts = []
        for (let start = 0; start < items.length; start += JUDGE_BATCH) {
          const answer = await deps.model.judgeClaims?.(items.slice(start, start + JUDGE_BATCH), {
            signal: input.signal,
          })
          if (!answer) break
          usage.inputTokens += answer.usage.inputTokens
          usage.outputTokens += answer.usage.outputTokens
          verdicts.push(...answer.verdicts.map((verdict) => ({ ...verdict, index: verdict.index + start })))
        }
        return verdicts
      }
    : undefined
  const classified = await classifyClaims(verified, known, known.length > 0 ? judge : undefined)
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
  const facts: ContributedFact[] = classified.map(({ claim, class: kind, match }) => ({
    text: claim.text,
    quote: claim.quote,
    sourceUrls: claim.sourceIds.flatMap((id) => urlOf.get(id) ?? []),
    statements: claim.statements,
    subject: claim.subject,
    polarity: claim.polarity,
    change: kind === 'new' || !match ? { class: 'new' } : { class: kind, factId: match.id },
  }))
  return { claims, facts, integrity, usage }
}

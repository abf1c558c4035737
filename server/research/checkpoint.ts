// What each step of a run hands on to the steps after it, as zod schemas: the run's checkpoint is a
// record of these, sealed between steps and parsed when a retried job resumes the run. A checkpoint
// another version wrote in another shape is not read as this one's: the run does its steps again.
import { z } from 'zod'
import type { Statements } from '#server/claims/figures.ts'
import type { Polarity } from '#server/claims/subject.ts'
import type { SearchResult, Usage } from '#server/providers/types.ts'
import type { MemoryDigest } from '#server/research/digest.ts'
import type { CorpusUse } from '#server/research/search-origin.ts'
import type { ContributedFact, MemoryContribution } from '#server/topics/contract.ts'
import { PolaritySchema, StatementsSchema } from '#server/vocabulary/memory.ts'
import { CorpusKindSchema, ReportSchema } from '#server/vocabulary/report.ts'
import type { Same } from '#server/vocabulary/same-type.ts'

const UsageSchema = z.object({ inputTokens: z.number(), outputTokens: z.number(), costDollars: z.number().optional() })

const SearchResultSchema = z.object({
  url: z.string(),
  title: z.string(),
  publishedDate: z.string().nullable(),
  text: z.string(),
  snippetOnly: z.boolean().optional(),
  foundBy: z.string().optional(),
  corpus: CorpusKindSchema.optional(),
  matchedByMeaning: z.boolean().optional(),
})

const ContributedFactSchema = z.object({
  text: z.string(),
  quote: z.string(),
  sourceUrls: z.array(z.string()),
  statements: StatementsSchema,
  subject: z.array(z.string()),
  polarity: PolaritySchema,
  change: z.union([
    z.object({ class: z.literal('new') }),
    z.object({ class: z.enum(['confirmed', 'updated', 'contradicted']), factId: z.string() }),
  ]),
  vector: z.string().optional(),
})

const MemoryDigestSchema = z.object({ recentRuns: z.array(z.string()), facts: z.array(z.string()) })

export const StepOutputsSchema = z.object({
  load_memory: z.object({
    baseline: z.boolean(),
    since: z.string().nullable(),
    ledger: z.array(z.string()),
    /** For the plan: what memory holds that matters to the brief, bounded (server/research/digest.ts). */
    digest: MemoryDigestSchema.optional(),
    /** The last run's open questions, and the queries of recent runs: the thread a re-run carries on. */
    openQuestions: z.array(z.string()).optional(),
    pastQueries: z.array(z.string()).optional(),
    /** Checkpoints written before the digest carry every fact instead. */
    knownFacts: z.array(z.string()).optional(),
  }),
  plan: z.object({
    queries: z.array(z.string()),
    fallback: z.boolean(),
    usage: UsageSchema,
    leftOut: z.array(z.string()).optional(),
  }),
  search: z.object({
    /** With the query that found each: passages are ranked against it. */
    sources: z.array(SearchResultSchema.extend({ query: z.string().optional() })),
    /** Every query searched, round one's and the follow-up's. */
    queries: z.array(z.string()).optional(),
    searchCalls: z.number(),
    costDollars: z.number(),
    removedByLedger: z.number(),
    usage: UsageSchema,
    /** What the budget left out of this step. */
    leftOut: z.array(z.string()).optional(),
    /** Set when the local corpus was searched, not the web (see server/research/search-origin.ts). */
    corpusUse: z.object({ corpus: CorpusKindSchema, offlineFallback: z.boolean() }).optional(),
  }),
  synthesize: z.object({
    report: ReportSchema,
    headline: z.string(),
    facts: z.array(ContributedFactSchema),
    vectors: z.object({ model: z.string(), byFact: z.record(z.string(), z.string()) }).optional(),
    /** What the sources left open: the next run starts from these. */
    openQuestions: z.array(z.string()).optional(),
  }),
})

/** What each step hands on to the steps after it. */
export type StepOutputs = z.output<typeof StepOutputsSchema>
/** The run's checkpoint: the output of each step that has ended, sealed between steps. */
export const CheckpointSchema = StepOutputsSchema.partial()
export type Checkpoint = z.output<typeof CheckpointSchema>

// Each part is the type the code that makes it declares, exactly: a field added there and not here
// fails `tsc` (and would otherwise be dropped when a checkpoint is parsed).
type AllTrue<Checks extends true[]> = Checks
// biome-ignore lint/correctness/noUnusedVariables: a check for tsc, not a type to use
type Exactly = AllTrue<
  [
    Same<z.output<typeof UsageSchema>, Usage>,
    Same<z.output<typeof SearchResultSchema>, SearchResult>,
    Same<z.output<typeof StatementsSchema>, Statements>,
    Same<z.output<typeof PolaritySchema>, Polarity>,
    Same<z.output<typeof ContributedFactSchema>, ContributedFact>,
    Same<z.output<typeof MemoryDigestSchema>, MemoryDigest>,
    Same<StepOutputs['search']['corpusUse'], CorpusUse | undefined>,
    Same<StepOutputs['synthesize']['vectors'], MemoryContribution['vectors']>,
  ]
>

/**
 * The run's checkpoint (its JSON, opened), parsed: the outputs of the steps that ended, or the issues
 * that keep this version from reading it (another version wrote it in another shape). Undefined when
 * it has none.
 */
export function parseCheckpoint(json: string | undefined) {
  return json === undefined ? undefined : CheckpointSchema.safeParse(JSON.parse(json))
}

/**
 * A run's checkpoint as it is sealed: each step's output is serialized once, when a boundary first
 * stores it, instead of the whole (growing) checkpoint at every step. The last step's output goes
 * to the run's end, not to a boundary, and is serialized only if the end fails and a boundary must
 * keep it. A step's output is not changed once added.
 */
export function checkpointJson(initial: object): { add: (step: string, output: unknown) => void; json: () => string } {
  const parts = new Map<string, { output: unknown; json?: string }>(
    Object.entries(initial).map(([step, output]) => [step, { output }]),
  )
  return {
    add: (step, output) => void parts.set(step, { output }),
    json: () => {
      const members = [...parts].map(([step, part]) => {
        part.json ??= JSON.stringify(part.output)
        return `${JSON.stringify(step)}:${part.json}`
      })
      return `{${members.join(',')}}`
    },
  }
}

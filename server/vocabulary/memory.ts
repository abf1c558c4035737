// A topic's memory as it is stored (sealed, one blob a topic), read back by its shape: every version's.
// Memory is what Sextant exists to keep, so the schema refuses only what is not memory at all: a field
// an older version did not write is optional (and read in today's shape by server/topics/facts.ts),
// and a label that merely describes (a source's title, a run's counts) falls back rather than making
// the whole topic unreadable. The claims engine's readings of a fact (its figures and dates, subject
// and polarity) are checked where they are used, against the edition that made them
// (server/topics/facts.ts): an older edition's are read again from the fact's text. Their schemas
// are the checkpoint's too, held to the engine's types there (server/research/checkpoint.ts).
import { z } from 'zod'

const FirstSeenSchema = z.object({ runId: z.string(), at: z.string() })

/** A figure as the claims engine reads it (server/claims/figures.ts). */
export const FigureSchema = z.object({
  value: z.number(),
  unit: z.string(),
  bound: z.enum(['about', 'over', 'under']).optional(),
  earlier: z.literal(true).optional(),
})

/** The figures and dates a claim states (server/claims/figures.ts). */
export const StatementsSchema = z.object({ figures: z.array(FigureSchema), dates: z.array(z.string()) })

/** Whether a claim denies, and the stances it takes (server/claims/subject.ts). */
export const PolaritySchema = z.object({ negated: z.boolean(), directions: z.array(z.string()) })

export const StoredFactSchema = z.object({
  id: z.string(),
  text: z.string(),
  sourceUrls: z.array(z.string()),
  firstSeen: FirstSeenSchema,
  /** Absent before claims kept their quotes. */
  quote: z.string().optional(),
  /** The readings, as the edition `readWith` made them; absent before claims were read. */
  statements: z.unknown().optional(),
  subject: z.unknown().optional(),
  polarity: z.unknown().optional(),
  readWith: z.number().optional(),
  /** Absent before a run said when it last found a fact. */
  lastConfirmed: z.string().optional(),
  supersedes: z.object({ id: z.string(), change: z.enum(['updated', 'contradicted']) }).optional(),
  supersededBy: z.string().optional(),
  vector: z.string().optional(),
})

const count = () => z.number().catch(0)

export const StoredMemorySchema = z.object({
  topic: z.string(),
  facts: z.array(StoredFactSchema),
  sources: z.array(
    z.object({
      url: z.string(),
      title: z.string().catch(''),
      publishedDate: z.string().nullable().catch(null),
      firstSeen: FirstSeenSchema,
    }),
  ),
  ledger: z.array(z.object({ url: z.string(), readAt: z.string() })),
  runs: z.array(
    z.object({
      runId: z.string(),
      at: z.string(),
      newFacts: count(),
      confirmedFacts: z.number().optional(),
      newSources: count(),
      urlsRead: count(),
      summary: z.string().optional(),
      queries: z.array(z.string()).optional(),
      openQuestions: z.array(z.string()).optional(),
    }),
  ),
  vectorModel: z.string().optional(),
})

/** The figures and dates a claim states, and its polarity: the claims engine's types (checkpoint.ts holds them equal). */
export type Statements = z.output<typeof StatementsSchema>
export type Polarity = z.output<typeof PolaritySchema>
export type StoredFact = z.infer<typeof StoredFactSchema>
export type StoredMemory = z.infer<typeof StoredMemorySchema>

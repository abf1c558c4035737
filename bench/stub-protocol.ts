// What the harness (bench/stubs.ts) and the stub process (bench/stub-process.ts) say to each other
// over the IPC channel the harness opens when it spawns the process: the options on its command line,
// a `ready` with the providers' settings, then one reply per request. Both sides parse what they get.
import { z } from 'zod'

/** What the stubs served for a topic: model tokens, searches and results. */
export type Served = {
  promptTokens: number
  completionTokens: number
  /** Model tokens (prompt and completion) by kind of call: plan, synthesize, judge, embed. */
  byKind: Record<string, number>
  searches: number
  results: number
}

export const StubOptionsSchema = z.object({
  latency: z.object({ modelMs: z.number().int().min(0), searchMs: z.number().int().min(0) }),
  /** Each stub behind a front that enforces a provider's limit (bench/limited-stubs.ts). */
  limits: z
    .object({
      /** Search requests answered in any sliding second; the rest get 429. */
      searchPerSecond: z.number().int().min(1),
      /** Model calls (chat and embeddings) answered at once; one more gets 429. */
      modelConcurrency: z.number().int().min(1),
    })
    .optional(),
})
export type StubOptions = z.infer<typeof StubOptionsSchema>

export const StubRequestSchema = z.discriminatedUnion('method', [
  z.object({ id: z.number().int(), method: z.literal('callsFor'), topic: z.string() }),
  z.object({ id: z.number().int(), method: z.literal('servedFor'), topic: z.string() }),
  z.object({ id: z.number().int(), method: z.literal('limitStats') }),
  z.object({
    id: z.number().int(),
    method: z.literal('setNewShare'),
    topic: z.string(),
    share: z.number().min(0).max(1),
    restating: z.boolean().optional(),
  }),
])
export type StubRequest = z.infer<typeof StubRequestSchema>

export const StubMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), env: z.record(z.string(), z.string()) }),
  z.object({
    type: z.literal('reply'),
    id: z.number().int(),
    result: z.unknown().optional(),
    error: z.string().optional(),
  }),
])
export type StubMessage = z.infer<typeof StubMessageSchema>

export const ProviderCallsSchema = z.array(
  z.object({ kind: z.enum(['model', 'search']), startedAt: z.number(), endedAt: z.number() }),
)

export const ServedSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  byKind: z.record(z.string(), z.number()),
  searches: z.number(),
  results: z.number(),
})

/** The limits the monitors scenario gives its providers. */
export type ProviderLimits = NonNullable<StubOptions['limits']>

const FrontLimitSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('window'), limit: z.number(), windowMs: z.number() }),
  z.object({ kind: z.literal('concurrency'), limit: z.number() }),
])
export type FrontLimit = z.infer<typeof FrontLimitSchema>

/** What a limited front saw, on its clock (epoch ms with the monotonic clock's precision, unless injected). */
const FrontStatsSchema = z.object({
  limit: FrontLimitSchema,
  /** Requests that reached the front, 429s it sent, and answers the stub gave by HTTP status. */
  arrivals: z.number(),
  rejected: z.number(),
  answered: z.record(z.string(), z.number()),
  /** Most requests that arrived in any window of the limit's length (a window limit: 1 s), 429s included. */
  peakInWindow: z.number(),
  /** The same for the requests let through: at most the limit, by construction. */
  peakAdmittedInWindow: z.number(),
  /** Most requests the front held at once, counting an arrival that got 429 as one more at that moment. */
  peakAtOnce: z.number(),
  /** Most requests let through at once: at most a concurrency limit, by construction. */
  peakAdmittedAtOnce: z.number(),
  firstArrivalAt: z.number().nullable(),
  lastArrivalAt: z.number().nullable(),
  /** Arrivals and 429s in each second from the first arrival. */
  perSecond: z.array(z.object({ arrivals: z.number(), rejected: z.number() })),
  /** Requests let through now, not yet answered. */
  inFlight: z.number(),
})
export type FrontStats = z.infer<typeof FrontStatsSchema>

/** What the limited stubs' fronts saw, and what the stubs behind them served (successful calls). */
export const LimitStatsSchema = z.object({
  search: FrontStatsSchema,
  model: FrontStatsSchema,
  searchesServed: z.number(),
  /** Model calls answered, by kind: plan, synthesize, judge, embed, other. */
  modelServedByKind: z.record(z.string(), z.number()),
})
export type LimitStats = z.infer<typeof LimitStatsSchema>

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
})
export type StubOptions = z.infer<typeof StubOptionsSchema>

export const StubRequestSchema = z.discriminatedUnion('method', [
  z.object({ id: z.number().int(), method: z.literal('callsFor'), topic: z.string() }),
  z.object({ id: z.number().int(), method: z.literal('servedFor'), topic: z.string() }),
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

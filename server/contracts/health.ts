// The health probes' answers: /healthz (the process and its database) and /readyz (what a run needs).
import { z } from 'zod'

const CheckSchema = z.looseObject({ ok: z.boolean(), error: z.string().optional() })

export const HealthSchema = z.object({
  status: z.enum(['ok', 'down']),
  reason: z.string().optional().describe('Why the process is down (its database is not answering).'),
  version: z.string(),
  uptimeSeconds: z.int(),
})

export const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ database: CheckSchema, migrations: CheckSchema, jobs: CheckSchema }),
})

export type Health = z.infer<typeof HealthSchema>
export type Readiness = z.infer<typeof ReadinessSchema>

// RFC 9457 problem details as the API sends them (server/http/problem.ts makes them); a refusal for a
// rate limit adds which limit and when it resets.
import { z } from 'zod'

export const ProblemSchema = z.looseObject({
  type: z.string().describe('A URI naming the kind of problem; `about:blank` when the status says it all.'),
  title: z.string(),
  status: z.int(),
  detail: z.string().optional().describe('What went wrong with this request, for a person to read.'),
  requestId: z.string().optional().describe('Also the X-Request-Id header; quote it when reporting a problem.'),
  errors: z
    .array(z.object({ path: z.string().describe('The field, dotted, or `(root)`.'), message: z.string() }))
    .optional()
    .describe('One entry per invalid field, on validation problems.'),
})

export const RateLimitProblemSchema = ProblemSchema.extend({
  limit: z.string().describe('The name of the limit that was reached.'),
  quota: z.int(),
  windowSeconds: z.int(),
  retryAfterSeconds: z.int(),
  resetsAt: z.iso.datetime(),
})

import type { z } from 'zod'
import { HttpProblem } from '#server/http/problem.ts'

/** Parses input with a zod schema; a mismatch is a 400 listing each bad field. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown, what = 'request body'): T {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw new HttpProblem({
    status: 400,
    title: 'Bad Request',
    type: 'https://sextant.dev/problems/validation',
    detail: `The ${what} is not valid.`,
    errors: result.error.issues.map((issue) => ({
      path: issue.path.length > 0 ? issue.path.join('.') : '(root)',
      message: issue.message,
    })),
  })
}

// What the contracts of many API operations share: problem answers, their headers, path parameters.
// Each route module declares its own operations with these (zod-openapi's path objects); openapi.ts
// renders them all. An `id` in `.meta()` names the piece in the document's components, so every
// operation that uses it refers to one copy.
import type { Response } from 'express'
import { z } from 'zod'
import type { ZodOpenApiResponseObject } from 'zod-openapi'
import { ProblemSchema, RateLimitProblemSchema } from '#server/contracts/problem.ts'
import { BODY_LIMIT_BYTES } from '#server/http/json-body.ts'

export type { ZodOpenApiPathsObject as ApiContract } from 'zod-openapi'

const Problem = ProblemSchema.meta({ id: 'Problem' })
const RateLimitProblem = RateLimitProblemSchema.meta({ id: 'RateLimitProblem' })

/** A JSON answer of this schema, its type kept so that `reply` checks a handler's body against it. */
export function json<Schema extends z.ZodType>(description: string, schema: Schema) {
  return { description, content: { 'application/json': { schema } } } satisfies ZodOpenApiResponseObject
}

type Operation = { responses: object }
type JsonAnswer = { content: { 'application/json': { schema: z.ZodType } } }

/** The body the operation documents for `status`: what its JSON schema gives (never for a problem). */
export type AnswerOf<
  Op extends Operation,
  Status extends keyof Op['responses'],
> = Op['responses'][Status] extends JsonAnswer
  ? z.output<Op['responses'][Status]['content']['application/json']['schema']>
  : never

/**
 * Sends the operation's `status` answer. The body must be what the contract documents for it, so an
 * answer that drifts from the OpenAPI document fails `tsc`, not a client. (Problems are thrown as
 * `HttpProblem`, not replied.)
 */
export function reply<Op extends Operation, Status extends keyof Op['responses'] & `${number}`>(
  res: Response,
  _operation: Op,
  status: Status,
  body: AnswerOf<Op, Status>,
): void {
  res.status(Number(status)).json(body)
}

/** An RFC 9457 problem answer. */
export function problem(description: string, headers?: z.ZodObject): ZodOpenApiResponseObject {
  return { description, headers, content: { 'application/problem+json': { schema: Problem } } }
}

const header = (id: string, description: string) => z.string().meta({ description, header: { id } })
// Sent only when the request counted against a limit, and not on a replayed answer.
const rateLimitHeader = (id: string, description: string) => z.string().optional().meta({ description, header: { id } })

export const headers = {
  'WWW-Authenticate': header(
    'WWW-Authenticate',
    '`Bearer realm="sextant"`, with `error="invalid_token"` when a key was sent.',
  ),
  'RateLimit-Policy': rateLimitHeader(
    'RateLimit-Policy',
    'The limits this request counted against: `"<name>";q=<quota>;w=<window seconds>`.',
  ),
  RateLimit: rateLimitHeader('RateLimit', 'What remains of each: `"<name>";r=<remaining>;t=<seconds until reset>`.'),
  'Retry-After': z.int().meta({ description: 'Seconds to wait before retrying.', header: { id: 'Retry-After' } }),
  'Idempotent-Replayed': z
    .enum(['true'])
    .optional()
    .meta({
      description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
      header: { id: 'Idempotent-Replayed' },
    }),
}

export const rateLimitHeaders = { 'RateLimit-Policy': headers['RateLimit-Policy'], RateLimit: headers.RateLimit }
export const retryAfter = z.object({ 'Retry-After': headers['Retry-After'] })

/** Path parameters, each a component: the name is the key of the `requestParams.path` object. */
export const parameters = {
  runId: z.uuid().meta({ param: { id: 'RunId' } }),
  seriesId: z.uuid().meta({ param: { id: 'SeriesId' } }),
}

/** Answers many operations give, each a component of its own. */
export const responses = {
  badRequest: { id: 'BadRequest', ...problem('The request is not valid; `errors` lists each bad field.') },
  unauthorized: {
    id: 'Unauthorized',
    ...problem(
      'No API key, or one that is unknown, revoked or malformed.',
      z.object({ 'WWW-Authenticate': headers['WWW-Authenticate'] }),
    ),
  },
  demoKeyForbidden: { id: 'DemoKeyForbidden', ...problem('The demo key cannot manage API keys.') },
  signatureRejected: {
    id: 'SignatureRejected',
    ...problem('The webhook signature is missing, forged, or (Slack) more than five minutes old.'),
  },
  notFound: { id: 'NotFound', ...problem('There is no such resource in your account.') },
  contentTooLarge: { id: 'ContentTooLarge', ...problem(`The body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`) },
  unsupportedMediaType: {
    id: 'UnsupportedMediaType',
    ...problem('The body is not JSON (send Content-Type: application/json).'),
  },
  tooManyRequests: {
    id: 'TooManyRequests',
    description: 'A rate limit was reached; the body says which and when it resets.',
    headers: z.object({ ...retryAfter.shape, ...rateLimitHeaders }),
    content: { 'application/problem+json': { schema: RateLimitProblem } },
  },
} satisfies Record<string, ZodOpenApiResponseObject>

/** The answers to a request with a JSON body that is too large, or not JSON. */
export const bodyProblems = { '413': responses.contentTooLarge, '415': responses.unsupportedMediaType }

export const tooManyStreams = problem(
  'This API key already has as many event streams open (run events and MCP SSE sessions together) as one key may (MAX_EVENT_STREAMS_PER_SESSION, 20 by default); close one.',
)

/** No API key: `security: []` overrides the document's bearer requirement. */
export const publicOperation = { security: [] }

// GET /api/openapi.json: the REST API as an OpenAPI 3.1 document. Request bodies and queries come
// from the zod schemas the routes parse with; responses from schemas here that tsc holds to the
// types the routes send, so neither side can drift without a failing build or test.
import fs from 'node:fs'
import path from 'node:path'
import { Router } from 'express'
import { z } from 'zod'
import type { Account } from '#server/auth/accounts.ts'
import type { ApiKeySummary } from '#server/auth/api-keys.ts'
import { RUN_EVENT_TYPES } from '#server/events/event-types.ts'
import type { RunEvent } from '#server/events/run-events.ts'
import {
  FrameworkFilterSchema,
  FrameworkListSchema,
  FrameworkSchema,
  FrameworkSummarySchema,
} from '#server/frameworks/types.ts'
import { ListRunsQuerySchema } from '#server/http/api/briefs.ts'
import { CreateKeySchema } from '#server/http/api/keys.ts'
import { CheckQuerySchema } from '#server/http/api/memory.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { UpdateSeriesSchema } from '#server/http/api/series.ts'
import { WEBHOOK_BODY_LIMIT_BYTES } from '#server/http/api/webhooks.ts'
import type { ApiPrincipal } from '#server/http/api-auth.ts'
import { projectRoot } from '#server/http/app-build.ts'
import { BODY_LIMIT_BYTES } from '#server/http/json-body.ts'
import type { WebhookOutcome } from '#server/integrations/slack/events.ts'
import type { MemoryStats } from '#server/memory/types.ts'
import { BriefSchema, ClientBriefSchema } from '#server/research/brief.ts'
import { ReportSchema } from '#server/research/report-schema.ts'
import type { Report } from '#server/research/report-types.ts'
import type { listRuns, RunView } from '#server/research/runs.ts'
import type { SeriesView } from '#server/research/series.ts'
import type { RunStart } from '#server/research/start-run.ts'

type JsonObject = Record<string, unknown>

const timestamp = () => z.iso.datetime()

const RunErrorSchema = z.object({ code: z.string(), message: z.string() })

const runFields = {
  runId: z.uuid(),
  topic: z.string(),
  status: z.enum(['running', 'complete', 'failed', 'cancelled']),
  currentStep: z.string().nullable().describe('The step in progress while the run is running; null otherwise.'),
  source: z.string().describe('Where the brief came from.'),
  createdAt: timestamp(),
  finishedAt: timestamp().nullable(),
  error: RunErrorSchema.optional().describe('Why the run failed.'),
}

const RecurringInfoSchema = z.object({
  seriesId: z.uuid(),
  state: z.enum(['sleeping', 'running', 'paused', 'cancelled']),
  nextRunAt: timestamp()
    .nullable()
    .describe('When the next run starts; null while one runs, or when paused or stopped.'),
})

const RunViewSchema = z.object({
  ...runFields,
  brief: BriefSchema,
  report: ReportSchema.optional().describe('Present once the run is complete.'),
  recurring: RecurringInfoSchema.optional().describe('For a run of a recurring brief: its series.'),
})

const SeriesViewSchema = z.object({
  seriesId: z.uuid(),
  topic: z.string(),
  brief: BriefSchema,
  state: RecurringInfoSchema.shape.state,
  nextRunAt: timestamp().nullable(),
  createdAt: timestamp(),
  lastRunId: z.uuid().nullable(),
})

const RunListPageSchema = z.object({
  runs: z.array(z.object({ ...runFields, depth: z.string(), recurring: z.boolean() })),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
})

const RunStartSchema = z.object({
  runId: z.uuid(),
  status: z.literal('running'),
  hasMemory: z.boolean().describe('Whether this topic had memory to build on.'),
  runCount: z.int().describe('Completed runs of this topic before this one.'),
})

const MemoryStatsSchema = z.object({
  runCount: z.int(),
  urlsIndexed: z.int(),
  factsStored: z.int(),
  lastRunAt: timestamp(),
})

const ApiKeySchema = z.object({
  id: z.uuid(),
  prefix: z.string().describe('The 8 characters after `sx_`: how a key is named in lists and URLs.'),
  name: z.string(),
  kind: z.enum(['standard', 'demo']),
  createdAt: timestamp(),
  lastUsedAt: timestamp().nullable(),
  revokedAt: timestamp().nullable(),
})

const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe('The full key, `sx_<prefix>_<secret>`: shown in this response only.'),
})

const MeSchema = z.object({
  account: z.object({ id: z.uuid(), email: z.string(), kind: z.enum(['standard', 'local', 'demo', 'trial']) }),
  auth: z.object({
    via: z.enum(['api_key', 'local_dev']),
    keyPrefix: z.string().nullable(),
    demo: z.boolean().describe('Called with the public demo key: runs count against its daily limit.'),
  }),
})

const RunEventSchema = z.object({
  id: z.int().describe('Increases within a run; the SSE `id:` line, and what Last-Event-ID resumes after.'),
  runId: z.uuid(),
  type: z.enum(RUN_EVENT_TYPES),
  step: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: timestamp(),
})

const ProblemSchema = z.looseObject({
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

const RateLimitProblemSchema = ProblemSchema.extend({
  limit: z.string().describe('The name of the limit that was reached.'),
  quota: z.int(),
  windowSeconds: z.int(),
  retryAfterSeconds: z.int(),
  resetsAt: timestamp(),
})

const CheckSchema = z.looseObject({ ok: z.boolean(), error: z.string().optional() })

const HealthSchema = z.object({
  status: z.enum(['ok', 'down']),
  reason: z.string().optional().describe('Why the process is down (its database is not answering).'),
  version: z.string(),
  uptimeSeconds: z.int(),
})

const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ database: CheckSchema, migrations: CheckSchema, jobs: CheckSchema }),
})

// tsc fails on these lines when a response schema and the type its route sends drift apart.
type Deep<T> = T extends object ? { [K in keyof T]: Deep<T[K]> } : T
type Describes<Schema extends z.ZodType, T> =
  (<G>() => G extends Deep<z.output<Schema>> ? 1 : 2) extends <G>() => G extends Deep<T> ? 1 : 2 ? true : false
type PresentedKey = Omit<ApiKeySummary, 'createdAt' | 'lastUsedAt' | 'revokedAt'> & {
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}
true satisfies Describes<typeof RunStartSchema, RunStart>
true satisfies Describes<typeof RunViewSchema, RunView>
true satisfies Describes<typeof SeriesViewSchema, SeriesView>
true satisfies Describes<typeof RunListPageSchema, Awaited<ReturnType<typeof listRuns>>>
true satisfies Describes<typeof ReportSchema, Report>
true satisfies Describes<typeof MemoryStatsSchema, MemoryStats>
true satisfies Describes<typeof ApiKeySchema, PresentedKey>
true satisfies Describes<typeof MeSchema.shape.account, Pick<Account, 'id' | 'email' | 'kind'>>
true satisfies Describes<
  typeof MeSchema.shape.auth,
  { via: ApiPrincipal['via']; keyPrefix: string | null; demo: boolean }
>
true satisfies Describes<typeof RunEventSchema, RunEvent>

const WebhookOutcomeSchema = z.object({
  status: z.enum(['accepted', 'duplicate', 'ignored']).describe('duplicate: a retry of a delivery already received.'),
  reason: z.string().optional().describe('Why the event was ignored.'),
})
true satisfies Describes<typeof WebhookOutcomeSchema, WebhookOutcome>

const ref = (kind: 'schemas' | 'responses' | 'parameters' | 'headers', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
})

function jsonContent(schema: string, mediaType = 'application/json') {
  return { [mediaType]: { schema: ref('schemas', schema) } }
}

function problem(description: string, headers: JsonObject = {}, schema = 'Problem') {
  return { description, headers, content: jsonContent(schema, 'application/problem+json') }
}

/** Components as OpenAPI wants them: no dialect or id of their own, and without zod's noise (a regex
 * beside a format, safe-integer bounds on every int). */
function toSchemas(registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output') {
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ jsonSchema }) => {
      if (jsonSchema.format) delete jsonSchema.pattern
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum
    },
  })
  for (const schema of Object.values(schemas)) {
    delete schema.$schema
    delete schema.$id
  }
  return schemas
}

/** A query schema's fields as OpenAPI parameters, defaults shown and not required. */
function queryParameters(schema: z.ZodObject) {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' })
  const required = new Set(json.required ?? [])
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = typeof property === 'object' ? property : {}
    return { name, in: 'query', required: required.has(name), description, schema: rest }
  })
}

export function buildOpenApiDocument(version: string): JsonObject {
  const inputs = z.registry<{ id: string }>()
  inputs.add(ClientBriefSchema, { id: 'BriefInput' })
  inputs.add(CreateKeySchema, { id: 'CreateKeyInput' })
  inputs.add(UpdateSeriesSchema, { id: 'UpdateSeriesInput' })

  const outputs = z.registry<{ id: string }>()
  const named = {
    Brief: BriefSchema,
    RunStart: RunStartSchema,
    RunView: RunViewSchema,
    RunListPage: RunListPageSchema,
    Series: SeriesViewSchema,
    SeriesList: z.object({ series: z.array(SeriesViewSchema) }),
    Report: ReportSchema,
    MemoryStats: MemoryStatsSchema,
    MemoryCheck: MemoryStatsSchema.nullable(),
    ApiKey: ApiKeySchema,
    ApiKeyList: z.object({ keys: z.array(ApiKeySchema) }),
    CreatedApiKey: CreatedApiKeySchema,
    Me: MeSchema,
    Framework: FrameworkSchema,
    FrameworkSummary: FrameworkSummarySchema,
    FrameworkList: FrameworkListSchema,
    RunEvent: RunEventSchema,
    Problem: ProblemSchema,
    RateLimitProblem: RateLimitProblemSchema,
    Health: HealthSchema,
    Readiness: ReadinessSchema,
    WebhookOutcome: WebhookOutcomeSchema,
  }
  for (const [id, schema] of Object.entries(named)) outputs.add(schema, { id })

  const unauthorized = ref('responses', 'Unauthorized')
  const notFound = ref('responses', 'NotFound')
  const badRequest = ref('responses', 'BadRequest')
  const forbidden = ref('responses', 'DemoKeyForbidden')
  const tooManyStreams = problem(
    'This API key already has as many event streams open (run events and MCP SSE sessions together) as one key may (MAX_EVENT_STREAMS_PER_SESSION, 20 by default); close one.',
  )
  const bodyProblems = { '413': ref('responses', 'ContentTooLarge'), '415': ref('responses', 'UnsupportedMediaType') }
  const jsonBody = (schema: string) => ({ required: true, content: jsonContent(schema) })
  const rateLimitHeaders = {
    'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
    RateLimit: ref('headers', 'RateLimit'),
  }
  const publicOperation = { security: [] }
  const runId = ref('parameters', 'RunId')
  const seriesId = ref('parameters', 'SeriesId')
  const webhookResponses = (variable: string) => ({
    '400': badRequest,
    '401': ref('responses', 'SignatureRejected'),
    '413': problem(`The body is larger than ${WEBHOOK_BODY_LIMIT_BYTES / 1024 / 1024} MiB.`),
    '503': problem(`${variable} is not set on this server.`),
  })

  return {
    openapi: '3.1.0',
    info: {
      title: 'Sextant API',
      version,
      description: [
        'Start durable research runs, follow them, and read their reports and topic memory.',
        '',
        'Every `/api` endpoint but this document and the framework catalogue needs',
        '`Authorization: Bearer sx_<prefix>_<secret>`; an unknown',
        '`/api` path is 401 before it is 404. Bodies are JSON only and at most',
        `${BODY_LIMIT_BYTES / 1024} KiB. A method a path does not support is 405 with \`Allow\`. Every error is`,
        "`application/problem+json` (RFC 9457); another account's resources answer 404.",
        'An address that presents many wrong keys (or several unknown keys at once) is answered 429 with',
        '`Retry-After` for a while, whatever the endpoint.',
      ].join('\n'),
    },
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'account', description: 'The caller and its API keys.' },
      { name: 'briefs', description: 'Research runs.' },
      { name: 'memory', description: 'What Sextant remembers about a topic.' },
      { name: 'frameworks', description: 'The research lenses a brief can apply with `frameworkId`.' },
      { name: 'meta', description: 'This document and the health probes.' },
      { name: 'webhooks', description: 'Slack and GitHub: signed by the platform instead of an API key.' },
    ],
    paths: {
      '/api/me': {
        get: {
          operationId: 'getMe',
          tags: ['account'],
          summary: 'The account and key you are calling with',
          responses: {
            '200': { description: 'Who the key belongs to.', content: jsonContent('Me') },
            '401': unauthorized,
          },
        },
      },
      '/api/keys': {
        get: {
          operationId: 'listKeys',
          tags: ['account'],
          summary: 'Your API keys, never their secrets',
          responses: {
            '200': {
              description: 'Every key of the account, revoked ones included.',
              content: jsonContent('ApiKeyList'),
            },
            '401': unauthorized,
            '403': forbidden,
          },
        },
        post: {
          operationId: 'createKey',
          tags: ['account'],
          summary: 'Create an API key',
          requestBody: jsonBody('CreateKeyInput'),
          responses: {
            '201': {
              description: 'The new key; `key` is shown in this response only.',
              content: jsonContent('CreatedApiKey'),
            },
            '400': badRequest,
            '401': unauthorized,
            '403': forbidden,
            '409': problem(
              'The account has as many active API keys as it may (API_KEYS_PER_ACCOUNT); revoke one first.',
            ),
            ...bodyProblems,
          },
        },
      },
      '/api/keys/{prefix}': {
        delete: {
          operationId: 'revokeKey',
          tags: ['account'],
          summary: 'Revoke an API key',
          description:
            'It stops working at once on every instance (they hear of it through Postgres; one that could not, within 10 s), ' +
            'and its open event streams and MCP SSE sessions are closed.',
          parameters: [ref('parameters', 'KeyPrefix')],
          responses: {
            '200': { description: 'The revoked key.', content: jsonContent('ApiKey') },
            '401': unauthorized,
            '403': forbidden,
            '404': { ...notFound, description: 'You have no active key with this prefix.' },
          },
        },
      },
      '/api/memory/check': {
        get: {
          operationId: 'checkMemory',
          tags: ['memory'],
          summary: 'What Sextant remembers about a topic',
          parameters: queryParameters(CheckQuerySchema),
          responses: {
            '200': {
              description: 'The counts, or `null` when the topic has no memory (or it expired).',
              content: jsonContent('MemoryCheck'),
            },
            '400': badRequest,
            '401': unauthorized,
          },
        },
      },
      '/api/briefs': {
        get: {
          operationId: 'listRuns',
          tags: ['briefs'],
          summary: 'Your runs, newest first',
          description: 'Unknown query parameters are refused (400).',
          parameters: queryParameters(ListRunsQuerySchema),
          responses: {
            '200': { description: 'One page of runs.', content: jsonContent('RunListPage') },
            '400': badRequest,
            '401': unauthorized,
          },
        },
        post: {
          operationId: 'startRun',
          tags: ['briefs'],
          summary: 'Start a research run',
          description:
            'Answers 202 at once; the run goes on without the client. Follow it with `GET /api/briefs/{runId}/events` ' +
            'or poll `GET /api/briefs/{runId}`. Unknown fields are refused, so a typo does not fall back to a default.',
          parameters: [ref('parameters', 'IdempotencyKey')],
          requestBody: jsonBody('BriefInput'),
          responses: {
            '202': {
              description: 'The run started (or, with `Idempotent-Replayed: true`, the first answer to this key).',
              headers: {
                Location: { description: 'The run: `/api/briefs/{runId}`.', schema: { type: 'string' } },
                'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed'),
                ...rateLimitHeaders,
              },
              content: jsonContent('RunStart'),
            },
            '400': {
              ...badRequest,
              description:
                'The brief, or the Idempotency-Key, is not valid. `source` may be `api`, `dashboard` or `mcp`; the other sources are set by Sextant.',
            },
            '401': unauthorized,
            '403': problem('The demo key cannot start a recurring brief.'),
            '409': problem('A request with this Idempotency-Key is still being processed; retry shortly.', {
              'Retry-After': ref('headers', 'Retry-After'),
            }),
            ...bodyProblems,
            '422': problem('This Idempotency-Key was already used with a different body.'),
            '429': ref('responses', 'TooManyRequests'),
            '503': problem(
              'The run could not be queued (the database or the job system cannot take it); none started.',
              {
                'Retry-After': ref('headers', 'Retry-After'),
              },
            ),
          },
        },
      },
      '/api/briefs/{runId}': {
        get: {
          operationId: 'getRun',
          tags: ['briefs'],
          summary: 'A run: status, brief, and the report once complete',
          parameters: [runId],
          responses: {
            '200': { description: 'The run.', content: jsonContent('RunView') },
            '401': unauthorized,
            '404': notFound,
          },
        },
        delete: {
          operationId: 'cancelRun',
          tags: ['briefs'],
          summary: 'Cancel a running run',
          parameters: [runId],
          responses: {
            '200': { description: 'The run, now cancelled.', content: jsonContent('RunView') },
            '401': unauthorized,
            '404': notFound,
            '409': problem('The run is already complete, failed or cancelled.'),
          },
        },
      },
      '/api/series': {
        get: {
          operationId: 'listSeries',
          tags: ['series'],
          summary: 'Your recurring briefs, newest first',
          responses: { '200': { description: 'The series.', content: jsonContent('SeriesList') }, '401': unauthorized },
        },
      },
      '/api/series/{seriesId}': {
        get: {
          operationId: 'getSeries',
          tags: ['series'],
          summary: 'A recurring brief and what it is doing',
          parameters: [seriesId],
          responses: {
            '200': { description: 'The series.', content: jsonContent('Series') },
            '401': unauthorized,
            '404': notFound,
          },
        },
        patch: {
          operationId: 'updateSeries',
          tags: ['series'],
          summary: 'Pause or resume a recurring brief',
          parameters: [seriesId],
          requestBody: jsonBody('UpdateSeriesInput'),
          responses: {
            '200': { description: 'The series after the change.', content: jsonContent('Series') },
            '400': badRequest,
            '401': unauthorized,
            '404': notFound,
            '409': problem('The series was stopped; start a new brief instead.'),
            ...bodyProblems,
          },
        },
        delete: {
          operationId: 'stopSeries',
          tags: ['series'],
          summary: 'Stop a recurring brief for good (its past runs stay)',
          parameters: [seriesId],
          responses: {
            '200': { description: 'The series, now cancelled.', content: jsonContent('Series') },
            '401': unauthorized,
            '404': notFound,
            '409': problem('The series was already stopped.'),
          },
        },
      },
      '/api/briefs/{runId}/events': {
        get: {
          operationId: 'streamRunEvents',
          tags: ['briefs'],
          summary: "A run's progress as server-sent events",
          description: [
            'Replays the events the run has written, then streams new ones live, and ends after the final event',
            '(`complete`, `failed` or `cancelled`). Each event is',
            '`id: <RunEvent.id>`, `event: <RunEvent.type>` and `data: <RunEvent as JSON>` (see the RunEvent schema).',
            'Types: `run_started`, `step_started`, `step_finished`, `query_done`, `pages_read`, `warning`, and the final three.',
            'A reconnecting client sends the last id it saw as `Last-Event-ID` (EventSource does this itself) and',
            'gets only what came after; comment lines are keep-alives.',
          ].join('\n'),
          parameters: [
            runId,
            {
              name: 'Last-Event-ID',
              in: 'header',
              required: false,
              description: 'Resume after this event id.',
              schema: { type: 'string', pattern: '^\\d{1,15}$' },
            },
            {
              name: 'lastEventId',
              in: 'query',
              required: false,
              description: 'The same, for EventSource polyfills that cannot set headers; the header wins.',
              schema: { type: 'string', pattern: '^\\d{1,15}$' },
            },
          ],
          responses: {
            '200': {
              description: 'The event stream.',
              content: {
                'text/event-stream': {
                  schema: { type: 'string', description: 'SSE frames; each `data:` line is a RunEvent as JSON.' },
                },
              },
            },
            '204': {
              description: 'Last-Event-ID is at or past the final event: nothing more will come (EventSource stops).',
            },
            '401': unauthorized,
            '404': notFound,
            '429': tooManyStreams,
          },
        },
      },
      '/api/frameworks': {
        get: {
          operationId: 'listFrameworks',
          tags: ['frameworks'],
          summary: 'The research frameworks a brief can name in `frameworkId`',
          description: 'Without the query hints the planner uses; `GET /api/frameworks/{id}` has them.',
          ...publicOperation,
          parameters: queryParameters(FrameworkFilterSchema),
          responses: {
            '200': {
              description: 'The matching frameworks, in catalogue order.',
              content: jsonContent('FrameworkList'),
            },
            '400': { ...badRequest, description: 'An unknown category or query parameter.' },
          },
        },
      },
      '/api/frameworks/{id}': {
        get: {
          operationId: 'getFramework',
          tags: ['frameworks'],
          summary: 'One research framework, with its query hints',
          ...publicOperation,
          parameters: [ref('parameters', 'FrameworkId')],
          responses: {
            '200': { description: 'The framework.', content: jsonContent('Framework') },
            '404': { ...notFound, description: 'No framework has this id; `GET /api/frameworks` lists them.' },
          },
        },
      },
      '/api/mcp': {
        post: {
          operationId: 'mcpStreamableHttp',
          tags: ['mcp'],
          summary: 'MCP over Streamable HTTP (stateless): JSON-RPC messages for the nine Sextant tools',
          description:
            'The Model Context Protocol endpoint for Claude Desktop, Cursor and other MCP clients. Tools: research_brief, ' +
            'get_run_status, get_run_report, get_topic_memory, get_topic_delta, compare_topics, search_memory, ' +
            'list_frameworks, export_topic (tools/list describes them). Each tools/call counts against 120 calls per hour per key.',
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message or batch.' } },
            },
          },
          responses: {
            '200': { description: 'JSON-RPC responses, as JSON or an event stream.' },
            '202': { description: 'Accepted (notifications).' },
            '400': { description: 'Not a valid JSON-RPC message.', 'x-jsonrpc-error': true },
            '401': unauthorized,
            '406': {
              description: 'The client must accept both application/json and text/event-stream.',
              'x-jsonrpc-error': true,
            },
            '403': problem('A browser request from another origin.'),
            '429': ref('responses', 'TooManyRequests'),
            ...bodyProblems,
          },
        },
      },
      '/api/mcp/sse': {
        get: {
          operationId: 'mcpSseStream',
          tags: ['mcp'],
          summary: 'MCP over the legacy HTTP+SSE transport: opens a session stream',
          description:
            'The first event (`endpoint`) names the URL to POST messages to; the session lives as long as this stream.',
          responses: {
            '200': {
              description: 'The session event stream.',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            '401': unauthorized,
            '403': problem('A browser request from another origin.'),
            '429': tooManyStreams,
          },
        },
      },
      '/api/mcp/messages': {
        post: {
          operationId: 'mcpSseMessage',
          tags: ['mcp'],
          summary: 'A JSON-RPC message for an open MCP SSE session (`?sessionId=` from the endpoint event)',
          parameters: [{ name: 'sessionId', in: 'query', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
          responses: {
            '202': { description: 'Accepted; the answer arrives on the session stream.' },
            '401': unauthorized,
            '403': problem('A browser request from another origin.'),
            '404': problem('No open session with this id for this account.'),
            '429': ref('responses', 'TooManyRequests'),
            ...bodyProblems,
          },
        },
      },
      '/api/webhooks/slack': {
        post: {
          operationId: 'slackEvents',
          tags: ['webhooks'],
          summary: 'Slack Events API: url_verification, and app_mention events that start runs',
          description:
            "Signed with the Slack app's signing secret (v0, within five minutes). An `app_mention` from a person in " +
            'a linked workspace starts a run; the replies go to its thread. Answers at once; retries of an ' +
            '`event_id` are acknowledged as duplicates and start nothing.',
          security: [{ slackSignature: [] }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', description: 'A Slack Events API payload.' } } },
          },
          responses: {
            '200': {
              description: '`{ challenge }` for url_verification; otherwise what happened to the event.',
              content: {
                'application/json': {
                  schema: {
                    oneOf: [
                      ref('schemas', 'WebhookOutcome'),
                      { type: 'object', properties: { challenge: { type: 'string' } }, required: ['challenge'] },
                    ],
                  },
                },
              },
            },
            ...webhookResponses('SLACK_SIGNING_SECRET'),
          },
        },
      },
      '/api/webhooks/github': {
        post: {
          operationId: 'githubEvents',
          tags: ['webhooks'],
          summary: 'GitHub webhooks: a pull request comment saying "@sextant research <topic>" starts a run',
          description:
            'Signed with the webhook secret (`X-Hub-Signature-256`). Only `issue_comment` events (action `created`, on a ' +
            'pull request, by a person) of a linked repository start a run; the result is posted as a comment. ' +
            'A redelivery of an `X-GitHub-Delivery` starts nothing.',
          security: [{ githubSignature: [] }],
          parameters: [
            { name: 'X-GitHub-Event', in: 'header', required: true, schema: { type: 'string' } },
            { name: 'X-GitHub-Delivery', in: 'header', required: true, schema: { type: 'string' } },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', description: 'A GitHub webhook payload.' } } },
          },
          responses: {
            '200': { description: 'What happened to the event.', content: jsonContent('WebhookOutcome') },
            ...webhookResponses('GITHUB_WEBHOOK_SECRET'),
          },
        },
      },
      '/api/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['meta'],
          summary: 'This document',
          ...publicOperation,
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document.',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'getHealth',
          tags: ['meta'],
          summary: 'Liveness: the process is up and its database answers',
          description: 'The database is pinged at most once a second, however often this is called.',
          ...publicOperation,
          responses: {
            '200': { description: 'Up.', content: jsonContent('Health') },
            '503': { description: 'The database is not answering; `reason` says so.', content: jsonContent('Health') },
          },
        },
      },
      '/readyz': {
        get: {
          operationId: 'getReadiness',
          tags: ['meta'],
          summary: 'Readiness: database, migrations, and a job system that can queue a run',
          ...publicOperation,
          responses: {
            '200': { description: 'Ready.', content: jsonContent('Readiness') },
            '503': { description: 'Not ready; `checks` says which part failed.', content: jsonContent('Readiness') },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sx_<prefix>_<secret>',
          description: 'An API key: `npm run cli -- keys create`, or `POST /api/keys`.',
        },
        slackSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Slack-Signature',
          description:
            '`v0=` + HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<body>` with SLACK_SIGNING_SECRET; the timestamp within five minutes.',
        },
        githubSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Hub-Signature-256',
          description: '`sha256=` + HMAC-SHA256 of the body with GITHUB_WEBHOOK_SECRET.',
        },
      },
      schemas: { ...toSchemas(inputs, 'input'), ...toSchemas(outputs, 'output') },
      parameters: {
        RunId: { name: 'runId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        SeriesId: { name: 'seriesId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        FrameworkId: {
          name: 'id',
          in: 'path',
          required: true,
          description: 'A framework id, such as `pestle`.',
          schema: { type: 'string' },
        },
        KeyPrefix: {
          name: 'prefix',
          in: 'path',
          required: true,
          description: 'The key prefix shown in key lists.',
          schema: { type: 'string' },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'The same key and body within 24 hours replay the first answer; the same key with another body is 422.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
        },
      },
      headers: {
        'WWW-Authenticate': {
          description: '`Bearer realm="sextant"`, with `error="invalid_token"` when a key was sent.',
          schema: { type: 'string' },
        },
        'RateLimit-Policy': {
          description: 'The limits this request counted against: `"<name>";q=<quota>;w=<window seconds>`.',
          schema: { type: 'string' },
        },
        RateLimit: {
          description: 'What remains of each: `"<name>";r=<remaining>;t=<seconds until reset>`.',
          schema: { type: 'string' },
        },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
        'Idempotent-Replayed': {
          description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
        Allow: { description: 'The methods this path supports.', schema: { type: 'string' } },
      },
      responses: {
        BadRequest: problem('The request is not valid; `errors` lists each bad field.'),
        Unauthorized: problem('No API key, or one that is unknown, revoked or malformed.', {
          'WWW-Authenticate': ref('headers', 'WWW-Authenticate'),
        }),
        DemoKeyForbidden: problem('The demo key cannot manage API keys.'),
        SignatureRejected: problem('The webhook signature is missing, forged, or (Slack) more than five minutes old.'),
        NotFound: problem('There is no such resource in your account.'),
        MethodNotAllowed: problem('The path exists but not with this method.', { Allow: ref('headers', 'Allow') }),
        ContentTooLarge: problem(`The body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`),
        UnsupportedMediaType: problem('The body is not JSON (send Content-Type: application/json).'),
        TooManyRequests: problem(
          'A rate limit was reached; the body says which and when it resets.',
          { 'Retry-After': ref('headers', 'Retry-After'), ...rateLimitHeaders },
          'RateLimitProblem',
        ),
      },
    },
  }
}

function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }
  return manifest.version
}

/** Public: mount before the API key check, so clients and generators can read it without a key. */
export function openapiRoutes(): Router {
  const router = Router()
  const version = packageVersion()
  let document: string | undefined
  router.get('/openapi.json', (_req, res) => {
    document ??= JSON.stringify(buildOpenApiDocument(version))
    res.type('application/json').send(document)
  })
  router.all('/openapi.json', methodNotAllowed(['GET']))
  return router
}

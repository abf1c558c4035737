// GET /api/openapi.json: the REST API as an OpenAPI 3.1 document, rendered by zod-openapi from the
// contracts each route module declares beside its routes (docs/decisions). Bodies, queries and
// responses are the zod schemas the routes parse with and the types they send are inferred from, so
// the document cannot drift from the code.
import fs from 'node:fs'
import path from 'node:path'
import { Router } from 'express'
import { type CreateDocumentOptions, createDocument } from 'zod-openapi'
import { briefsContract } from '#server/http/api/briefs.ts'
import { type ApiContract, responses } from '#server/http/api/contract.ts'
import { emailContract } from '#server/http/api/email.ts'
import { feedsContract } from '#server/http/api/feeds.ts'
import { frameworksContract } from '#server/http/api/frameworks.ts'
import { keysContract } from '#server/http/api/keys.ts'
import { mcpContract } from '#server/http/api/mcp.ts'
import { meContract } from '#server/http/api/me.ts'
import { memoryContract } from '#server/http/api/memory.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { runEventsContract } from '#server/http/api/run-events.ts'
import { seriesContract } from '#server/http/api/series.ts'
import { webhookEndpointsContract } from '#server/http/api/webhook-endpoints.ts'
import { webhookSecuritySchemes, webhooksContract } from '#server/http/api/webhooks.ts'
import { projectRoot } from '#server/http/app-build.ts'
import { feedReadContract } from '#server/http/feeds.ts'
import { healthContract } from '#server/http/health.ts'
import { BODY_LIMIT_BYTES } from '#server/http/json-body.ts'
import { RunEventSchema } from '#server/runs/contract.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { FrameworkSummarySchema } from '#server/vocabulary/frameworks/types.ts'
import { ReportSchema } from '#server/vocabulary/report.ts'

const openapiContract: ApiContract = {
  '/api/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['meta'],
      summary: 'This document',
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  },
}

/** Every operation of the API and the health probes, as the routes declare them. */
export const apiContract: ApiContract = {
  ...meContract,
  ...keysContract,
  ...memoryContract,
  ...briefsContract,
  ...runEventsContract,
  ...seriesContract,
  ...emailContract,
  ...feedsContract,
  ...feedReadContract,
  ...frameworksContract,
  ...mcpContract,
  ...openapiContract,
  ...webhooksContract,
  ...webhookEndpointsContract,
  ...healthContract,
}

// Routes name their bodies with `.meta({ id })`. The contract schemas stay free of ids (the MCP SDK
// renders the same zod, and an id there would turn into a $ref), so the ones that other schemas hold
// are named here instead. zod-openapi renders a registered schema in every context it finds it in,
// so none of these holds another. RunEvent is what the event stream's `data:` lines carry.
const sharedSchemas = {
  Brief: BriefSchema,
  Report: ReportSchema,
  FrameworkSummary: FrameworkSummarySchema,
  RunEvent: RunEventSchema,
}

/** Without zod's noise: a pattern beside a format, and safe-integer bounds on every int. */
const withoutNoise: CreateDocumentOptions['override'] = ({ jsonSchema }) => {
  if (jsonSchema.format) delete jsonSchema.pattern
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum
}

/**
 * A write operation that takes no body refuses one with something in it (`noBody` in
 * validation.ts): its 400 is documented here, once for all of them.
 */
function refusingBodies(contract: ApiContract): ApiContract {
  const paths: ApiContract = {}
  for (const [path, item] of Object.entries(contract)) {
    const operations: Record<string, unknown> = { ...item }
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      const operation = item?.[method]
      if (!operation || operation.requestBody || operation.responses?.['400']) continue
      operations[method] = { ...operation, responses: { ...operation.responses, '400': responses.badRequest } }
    }
    paths[path] = operations as ApiContract[string]
  }
  return paths
}

/** The document as JSON: callers serve it or read it, so its exact OpenAPI types do not matter to them. */
export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const document = createDocument(
    {
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
      // Relative to where the document is read: the server that serves it is the one it describes.
      servers: [{ url: '/', description: 'The Sextant server that serves this document.' }],
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'account', description: 'The caller and its API keys.' },
        { name: 'briefs', description: 'Research runs.' },
        { name: 'memory', description: 'What Sextant remembers about a topic.' },
        { name: 'frameworks', description: 'The research lenses a brief can apply with `frameworkId`.' },
        { name: 'meta', description: 'This document and the health probes.' },
        {
          name: 'webhooks',
          description:
            'Inbound: Slack and GitHub, signed by the platform instead of an API key. Outbound: your endpoints, ' +
            'to which Sextant sends signed events (Standard Webhooks).',
        },
      ],
      paths: refusingBodies(apiContract),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'sx_<prefix>_<secret>',
            description: 'An API key: `npm run cli -- keys create`, or `POST /api/keys`.',
          },
          ...webhookSecuritySchemes,
        },
        schemas: sharedSchemas,
      },
    },
    { override: withoutNoise },
  )
  return { ...document }
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
  router.get('/', (_req, res) => {
    document ??= JSON.stringify(buildOpenApiDocument(version))
    res.type('application/json').send(document)
  })
  router.all('/', methodNotAllowed(['GET']))
  return router
}

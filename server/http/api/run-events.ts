// GET /api/briefs/{runId}/events: a run's progress as server-sent events, replayed after the client's
// Last-Event-ID and then live until the final event.
import { Router } from 'express'
import { z } from 'zod'
import { EventIdSchema } from '#server/events/sse.ts'
import { streamPrincipal } from '#server/events/stream-principals.ts'
import { runNotFound } from '#server/http/api/briefs.ts'
import { type ApiContract, parameters, responses, tooManyStreams } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { principalOf } from '#server/http/api-auth.ts'
import type { WebServices } from '#server/services.ts'
import { isFinalEvent, RUN_EVENT_TYPES } from '#server/vocabulary/runs.ts'

export const runEventsContract: ApiContract = {
  '/api/briefs/{runId}/events': {
    get: {
      operationId: 'streamRunEvents',
      tags: ['briefs'],
      summary: "A run's progress as server-sent events",
      description: [
        'Replays the events the run has written, then streams new ones live, and ends after the final event',
        '(`complete`, `failed` or `cancelled`). Each event is',
        '`id: <RunEvent.id>`, `event: <RunEvent.type>` and `data: <RunEvent as JSON>` (see the RunEvent schema).',
        `Types: ${RUN_EVENT_TYPES.filter((type) => !isFinalEvent(type))
          .map((type) => `\`${type}\``)
          .join(', ')}, and the final three.`,
        'A reconnecting client sends the last id it saw as `Last-Event-ID` (EventSource does this itself) and',
        'gets only what came after; comment lines are keep-alives.',
      ].join('\n'),
      requestParams: {
        path: z.object({ runId: parameters.runId }),
        header: z.object({ 'Last-Event-ID': EventIdSchema.optional().describe('Resume after this event id.') }),
        query: z.object({
          lastEventId: EventIdSchema.optional().describe(
            'The same, for EventSource polyfills that cannot set headers; the header wins.',
          ),
        }),
      },
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
        '401': responses.unauthorized,
        '404': responses.notFound,
        '429': tooManyStreams,
      },
    },
  },
}

export function runEventsRoutes(services: WebServices): Router {
  const router = Router()
  router.get('/:runId/events', async (req, res) => {
    const runId = String(req.params.runId)
    const principal = principalOf(res)
    const own = await services.runs.own(principal.accountId, runId)
    if (!own) throw runNotFound(runId)
    // A bounded number per key (a 429 beyond), and they end when the key is revoked.
    const signal = services.live.admit(streamPrincipal.api(principal), res)
    await services.live.streamRun({ req, res, runId: own, signal })
  })
  router.all('/:runId/events', methodNotAllowed(['GET']))
  return router
}

import { Router } from 'express'
import { z } from 'zod'
import { type ApiContract, json, reply, responses } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { principalOf } from '#server/http/api-auth.ts'
import type { WebServices } from '#server/services.ts'
import { MemoryStatsSchema } from '#server/topics/contract.ts'
import { TopicSchema } from '#server/vocabulary/topic.ts'

const CheckQuerySchema = z.object({
  topic: TopicSchema.describe('The topic, as you would send it in a brief; matched after normalization.'),
})

export const memoryContract = {
  '/api/memory/check': {
    get: {
      operationId: 'checkMemory',
      tags: ['memory'],
      summary: 'What Sextant remembers about a topic',
      requestParams: { query: CheckQuerySchema },
      responses: {
        '200': json(
          'The counts, or `null` when the topic has no memory (or it expired).',
          MemoryStatsSchema.meta({ id: 'MemoryStats' }).nullable().meta({ id: 'MemoryCheck' }),
        ),
        '400': responses.badRequest,
        '401': responses.unauthorized,
      },
    },
  },
} satisfies ApiContract

/** GET /api/memory/check?topic=...: spec 2.4's counts, or JSON null when the topic has no memory. */
export function memoryRoutes(services: WebServices): Router {
  const router = Router()
  router.get('/check', async (req, res) => {
    const { topic } = parseInput(CheckQuerySchema, { topic: req.query.topic }, 'query')
    reply(
      res,
      memoryContract['/api/memory/check'].get,
      '200',
      await services.topics.check(principalOf(res).accountId, topic),
    )
  })
  router.all('/check', methodNotAllowed(['GET']))
  return router
}

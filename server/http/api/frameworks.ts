// GET /api/frameworks and /api/frameworks/{id}: the research lenses a brief can name in frameworkId.
// Public, like the OpenAPI document: the catalogue is the same for everyone, and a client choosing a
// frameworkId may not have a key yet.
import { Router } from 'express'
import { z } from 'zod'
import { type ApiContract, json, problem, publicOperation, reply } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { findFramework, listFrameworks } from '#server/vocabulary/frameworks/index.ts'
import { FrameworkFilterSchema, FrameworkListSchema, FrameworkSchema } from '#server/vocabulary/frameworks/types.ts'

const FrameworkId = z.string().meta({ description: 'A framework id, such as `pestle`.', param: { id: 'FrameworkId' } })

export const frameworksContract = {
  '/api/frameworks': {
    get: {
      operationId: 'listFrameworks',
      tags: ['frameworks'],
      summary: 'The research frameworks a brief can name in `frameworkId`',
      description: 'Without the query hints the planner uses; `GET /api/frameworks/{id}` has them.',
      ...publicOperation,
      requestParams: { query: FrameworkFilterSchema },
      responses: {
        '200': json('The matching frameworks, in catalogue order.', FrameworkListSchema.meta({ id: 'FrameworkList' })),
        '400': problem('An unknown category or query parameter.'),
      },
    },
  },
  '/api/frameworks/{id}': {
    get: {
      operationId: 'getFramework',
      tags: ['frameworks'],
      summary: 'One research framework, with its query hints',
      ...publicOperation,
      requestParams: { path: z.object({ id: FrameworkId }) },
      responses: {
        '200': json('The framework.', FrameworkSchema.meta({ id: 'Framework' })),
        '404': problem('No framework has this id; `GET /api/frameworks` lists them.'),
      },
    },
  },
} satisfies ApiContract

export function frameworksRoutes(): Router {
  const router = Router()
  router.get('/', (req, res) => {
    const filter = parseInput(FrameworkFilterSchema, req.query, 'query')
    reply(res, frameworksContract['/api/frameworks'].get, '200', listFrameworks(filter))
  })
  router.all('/', methodNotAllowed(['GET']))
  router.get('/:id', (req, res) => {
    const id = String(req.params.id)
    const framework = findFramework(id)
    if (!framework) {
      throw new HttpProblem({
        status: 404,
        title: 'Not Found',
        detail: `There is no framework with the id "${id}": list them with GET /api/frameworks.`,
      })
    }
    reply(res, frameworksContract['/api/frameworks/{id}'].get, '200', framework)
  })
  router.all('/:id', methodNotAllowed(['GET']))
  return router
}

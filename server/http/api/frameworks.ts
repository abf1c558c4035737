// GET /api/frameworks and /api/frameworks/{id}: the research lenses a brief can name in frameworkId.
// Public, like the OpenAPI document: the catalogue is the same for everyone, and a client choosing a
// frameworkId may not have a key yet.
import { Router } from 'express'
import { findFramework, listFrameworks } from '#server/frameworks/index.ts'
import { FrameworkFilterSchema } from '#server/frameworks/types.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { HttpProblem } from '#server/http/problem.ts'

export function frameworksRoutes(): Router {
  const router = Router()
  router.get('/frameworks', (req, res) => {
    res.json(listFrameworks(parseInput(FrameworkFilterSchema, req.query, 'query')))
  })
  router.all('/frameworks', methodNotAllowed(['GET']))
  router.get('/frameworks/:id', (req, res) => {
    const id = String(req.params.id)
    const framework = findFramework(id)
    if (!framework) {
      throw new HttpProblem({
        status: 404,
        title: 'Not Found',
        detail: `There is no framework with the id "${id}": list them with GET /api/frameworks.`,
      })
    }
    res.json(framework)
  })
  router.all('/frameworks/:id', methodNotAllowed(['GET']))
  return router
}

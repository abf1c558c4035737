// /api/feeds: private Atom feeds of a topic's or a recurring brief's deltas. Create (the URL, with its
// token, is in this response only), list, revoke. Reading a feed is GET /feeds/{token}.atom
// (server/http/feeds.ts), without a login.
import { Router } from 'express'
import { z } from 'zod'
import {
  type ApiContract,
  bodyProblems,
  json,
  parameters,
  problem,
  reply,
  responses,
  retryAfter,
} from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { noBody, parseInput } from '#server/http/api/validation.ts'
import { memberAccountId } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { CreatedFeedSchema, FeedViewSchema, MAX_FEEDS_PER_ACCOUNT, presentFeed } from '#server/notify/contract.ts'

import type { WebServices } from '#server/services.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'

/** When a client may try again after a refusal for a full disk: as a run's start says. */
const UNAVAILABLE_RETRY_SECONDS = 30

const CreateFeedSchema = z.union([
  z.strictObject({ topic: BriefSchema.shape.topic.describe('A topic of yours, in any spelling.') }),
  z.strictObject({ seriesId: parameters.seriesId.describe('A recurring brief of yours.') }),
])

const FeedSchema = FeedViewSchema.meta({ id: 'Feed' })
const ListFeedsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Feeds per page, 1 to 100.'),
  cursor: z
    .uuid({ error: 'cursor must be the nextCursor of a previous page' })
    .optional()
    .describe('nextCursor from the previous page.'),
})
const FeedId = z.uuid().meta({ param: { id: 'FeedId' } })

export const feedsContract = {
  '/api/feeds': {
    get: {
      operationId: 'listFeeds',
      tags: ['feeds'],
      summary: 'Your feeds that still work, newest first (never their URLs), a page at a time',
      requestParams: { query: ListFeedsQuerySchema },
      responses: {
        '200': json(
          'A page of feeds; `nextCursor` is null on the last.',
          z.object({ feeds: z.array(FeedSchema), nextCursor: z.uuid().nullable() }).meta({ id: 'FeedList' }),
        ),
        '400': responses.badRequest,
        '401': responses.unauthorized,
        '403': responses.demoKeyForbidden,
      },
    },
    post: {
      operationId: 'createFeed',
      tags: ['feeds'],
      summary: 'Make a private Atom feed of a topic or a recurring brief',
      description:
        'Give `topic` or `seriesId`. The feed has one entry per complete run with something new, updated or ' +
        'contradicted (for a series whose notify is always, every complete run), newest first, at most 20. ' +
        'Its URL carries a random token: anyone with it can read the feed, so it is shown once; revoke it to stop it.',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: CreateFeedSchema.meta({ id: 'CreateFeedInput' }) } },
      },
      responses: {
        '201': json('The feed; `url` is shown in this response only.', CreatedFeedSchema.meta({ id: 'CreatedFeed' })),
        '400': responses.badRequest,
        '401': responses.unauthorized,
        '403': responses.demoKeyForbidden,
        '404': problem('You have no such topic (with memory) or recurring brief.'),
        '409': problem(`You have ${MAX_FEEDS_PER_ACCOUNT} feeds, as many as an account may.`),
        ...bodyProblems,
        '503': problem('The database cannot take a new feed now (its disk is full); none was made.', retryAfter),
      },
    },
  },
  '/api/feeds/{feedId}': {
    delete: {
      operationId: 'revokeFeed',
      tags: ['feeds'],
      summary: 'Revoke a feed: its URL answers 404 from now on',
      requestParams: { path: z.object({ feedId: FeedId }) },
      responses: {
        '200': json('The revoked feed.', FeedSchema),
        '401': responses.unauthorized,
        '403': responses.demoKeyForbidden,
        '404': problem('You have no working feed with this id.'),
      },
    },
  },
} satisfies ApiContract

export function feedsRoutes(services: WebServices): Router {
  const router = Router()
  const { feeds } = services

  router.get('/', async (req, res) => {
    const accountId = memberAccountId(res, 'make feeds')
    const page = parseInput(ListFeedsQuerySchema, req.query)
    const listed = await feeds.list(accountId, page)
    reply(res, feedsContract['/api/feeds'].get, '200', {
      feeds: listed.feeds.map(presentFeed),
      nextCursor: listed.nextCursor,
    })
  })
  router.post('/', async (req, res) => {
    const accountId = memberAccountId(res, 'make feeds')
    const subject = parseInput(CreateFeedSchema, req.body)
    const created = await feeds.create(accountId, subject)
    if (!created.ok && created.reason === 'unavailable') {
      res.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS))
      throw new HttpProblem({
        status: 503,
        title: 'Service Unavailable',
        detail: `The feed could not be made now (${created.message}), so none was. Try again in ${UNAVAILABLE_RETRY_SECONDS} seconds.`,
        retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS,
      })
    }
    if (!created.ok && created.reason === 'limit') {
      throw new HttpProblem({
        status: 409,
        title: 'Conflict',
        detail: `You have ${MAX_FEEDS_PER_ACCOUNT} feeds, as many as an account may; revoke one first.`,
      })
    }
    if (!created.ok) {
      const detail =
        'seriesId' in subject
          ? `You have no recurring brief with the id ${subject.seriesId}.`
          : 'You have no topic with memory by that name.'
      throw new HttpProblem({ status: 404, title: 'Not Found', detail })
    }
    reply(res, feedsContract['/api/feeds'].post, '201', { ...presentFeed(created.feed), url: created.url })
  })
  router.all('/', methodNotAllowed(['GET', 'POST']))

  router.delete('/:feedId', noBody, async (req, res) => {
    const feedId = String(req.params.feedId)
    const revoked = await feeds.revoke(memberAccountId(res, 'make feeds'), feedId)
    if (!revoked) {
      throw new HttpProblem({
        status: 404,
        title: 'Not Found',
        detail: `You have no working feed with the id ${feedId}.`,
      })
    }
    reply(res, feedsContract['/api/feeds/{feedId}'].delete, '200', presentFeed(revoked))
  })
  router.all('/:feedId', methodNotAllowed(['DELETE']))
  return router
}

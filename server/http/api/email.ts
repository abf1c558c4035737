// /api/email/addresses: the calling account's addresses for email digests. Adding one mails it a
// confirmation link; only verified addresses get digests (a series opts in with PATCH /api/series/{id}
// {"emailDigest": true}). Without SMTP_URL email is off: the list says so, and adding answers 503.
import { Router } from 'express'
import { z } from 'zod'
import { type ApiContract, bodyProblems, json, problem, reply, responses } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { noBody, parseInput } from '#server/http/api/validation.ts'
import { memberAccountId } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { sendRateLimited } from '#server/http/rate-limit.ts'
import { EmailAddressListSchema, EmailAddressSchema, MAX_ADDRESSES_PER_ACCOUNT } from '#server/notify/contract.ts'
import type { WebServices } from '#server/services.ts'

const AddAddressSchema = z.strictObject({
  address: z.email({ error: 'address must be an email address, like you@example.com' }).max(254),
})
const EmailAddress = EmailAddressSchema.meta({ id: 'EmailAddress' })
const demoForbidden = problem('The demo key cannot set up email.')
const AddressId = z.uuid().meta({ description: 'The id from the address list.', param: { id: 'AddressId' } })

export const emailContract = {
  '/api/email/addresses': {
    get: {
      operationId: 'listEmailAddresses',
      tags: ['email'],
      summary: 'Your addresses for email digests, and whether each is verified',
      responses: {
        '200': json('The addresses, oldest first.', EmailAddressListSchema.meta({ id: 'EmailAddressList' })),
        '401': responses.unauthorized,
        '403': demoForbidden,
      },
    },
    post: {
      operationId: 'addEmailAddress',
      tags: ['email'],
      summary: 'Add an address: a confirmation link is mailed to it',
      description:
        'The link verifies the address without signing in, once, within 24 hours. Adding an unverified address ' +
        'again mails a new link (at most once a minute); a verified one is answered as it is.',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: AddAddressSchema.meta({ id: 'AddEmailAddressInput' }) } },
      },
      responses: {
        '202': json('The address; its confirmation email is on its way (unless it is verified already).', EmailAddress),
        '400': responses.badRequest,
        '401': responses.unauthorized,
        '403': demoForbidden,
        '409': problem(`The account has ${MAX_ADDRESSES_PER_ACCOUNT} addresses; remove one first.`),
        '429': problem(
          'A confirmation was mailed to this address less than a minute ago, or too many confirmations went ' +
            'out from this account this hour or to this address today (Retry-After says when the next may).',
        ),
        '503': problem('Email is off on this server (no SMTP_URL).'),
        ...bodyProblems,
      },
    },
  },
  '/api/email/addresses/{addressId}': {
    delete: {
      operationId: 'removeEmailAddress',
      tags: ['email'],
      summary: 'Remove an address: it gets no more digests',
      requestParams: { path: z.object({ addressId: AddressId }) },
      responses: {
        '204': { description: 'Removed.' },
        '401': responses.unauthorized,
        '403': demoForbidden,
        '404': responses.notFound,
      },
    },
  },
} satisfies ApiContract

export function emailOff(): HttpProblem {
  return new HttpProblem({
    status: 503,
    title: 'Service Unavailable',
    detail: 'Email is off on this server: SMTP_URL is not set.',
  })
}

const ADD_REFUSED = {
  limit: new HttpProblem({
    status: 409,
    title: 'Conflict',
    detail: `You have ${MAX_ADDRESSES_PER_ACCOUNT} addresses, as many as an account may; remove one first.`,
  }),
  too_soon: new HttpProblem({
    status: 429,
    title: 'Too Many Requests',
    detail: 'A confirmation was mailed to this address less than a minute ago; check your inbox (and spam folder).',
  }),
}

export function emailRoutes(services: WebServices): Router {
  const router = Router()
  const { email } = services

  router.get('/addresses', async (_req, res) => {
    const addresses = await email.list(memberAccountId(res, 'set up email'))
    reply(res, emailContract['/api/email/addresses'].get, '200', { enabled: email.enabled, addresses })
  })
  router.post('/addresses', async (req, res) => {
    const accountId = memberAccountId(res, 'set up email')
    const { address } = parseInput(AddAddressSchema, req.body)
    const outcome = await email.add(accountId, address)
    if (outcome.ok) return reply(res, emailContract['/api/email/addresses'].post, '202', outcome.address)
    if (outcome.reason === 'off') throw emailOff()
    if (outcome.reason === 'rate_limited') return void sendRateLimited(res, outcome.decision)
    throw ADD_REFUSED[outcome.reason]
  })
  router.all('/addresses', methodNotAllowed(['GET', 'POST']))
  router.delete('/addresses/:addressId', noBody, async (req, res) => {
    const addressId = String(req.params.addressId)
    if (!(await email.remove(memberAccountId(res, 'set up email'), addressId))) {
      throw new HttpProblem({
        status: 404,
        title: 'Not Found',
        detail: `You have no address with the id ${addressId}.`,
      })
    }
    res.status(204).end()
  })
  router.all('/addresses/:addressId', methodNotAllowed(['DELETE']))
  return router
}

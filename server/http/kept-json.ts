// A complete run's view is one kept object, read again and again by clients that poll it
// (server/runs/service.ts keeps it): its JSON and ETag are worked out once per object, not on every
// read. Only for values nothing changes after they are sent (a kept view is never modified).
import type { Response } from 'express'
import type { AnswerOf } from '#server/http/api/contract.ts'

const sent = new WeakMap<object, { body: Buffer; etag: string | undefined }>()

/** What res.json sends as the type of a JSON body. */
const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * As `reply(res, operation, '200', value)`, with the body and its ETag (as Express would make it) kept
 * for this object.
 */
export function sendKeptJson<Op extends { responses: { '200': unknown } }>(
  res: Response,
  _operation: Op,
  value: AnswerOf<Op, '200'> & object,
): void {
  let known = sent.get(value)
  if (!known) {
    const body = JSON.stringify(value)
    // The app's own ETag function (weak by default); undefined when the app sends none.
    const etagOf = res.app.get('etag fn') as ((body: string, encoding: string) => string) | undefined
    known = { body: Buffer.from(body, 'utf8'), etag: etagOf?.(body, 'utf8') }
    sent.set(value, known)
  }
  // With the ETag set, Express does not hash the body again; a matching If-None-Match still gets 304.
  if (known.etag) res.setHeader('ETag', known.etag)
  // The type set as is and the body as bytes: Express then neither looks the type up nor parses it
  // to add a charset, nor encodes the body again, on every read.
  res.setHeader('Content-Type', JSON_TYPE)
  res.send(known.body)
}

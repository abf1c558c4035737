// A complete run's view is one kept object, read again and again by clients that poll it
// (server/services/runs.ts keeps it): its JSON and ETag are worked out once per object, not on every
// read. Only for values nothing changes after they are sent (a kept view is never modified).
import type { Response } from 'express'

const sent = new WeakMap<object, { body: string; etag: string | undefined }>()

/** As res.json(value), with the body and its ETag (as Express would make it) kept for this object. */
export function sendKeptJson(res: Response, value: object): void {
  let known = sent.get(value)
  if (!known) {
    const body = JSON.stringify(value)
    // The app's own ETag function (weak by default); undefined when the app sends none.
    const etagOf = res.app.get('etag fn') as ((body: string, encoding: string) => string) | undefined
    known = { body, etag: etagOf?.(body, 'utf8') }
    sent.set(value, known)
  }
  // With the ETag set, Express does not hash the body again; a matching If-None-Match still gets 304.
  if (known.etag) res.set('ETag', known.etag)
  res.type('json').send(known.body)
}

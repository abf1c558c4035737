// A page action whose run could not be queued answers 503 and the error page says when to try again,
// instead of a 500: nothing was started, and the same form can be sent again later.
import { data } from 'react-router'
import type { Refusal } from '#server/runs/service.ts'

/** Throws the 503 page for a run that could not be queued; gives back any other refusal for the page to say. */
export function refuseUnqueuedRun(refusal: Refusal): Exclude<Refusal, { reason: 'not_queued' }> {
  if (refusal.reason !== 'not_queued') return refusal
  throw data(refusal.message, { status: 503, statusText: 'Service Unavailable' })
}

// A page action whose run could not be queued answers 503 and the error page says when to try again,
// instead of a 500: nothing was started, and the same form can be sent again later.
import { data } from 'react-router'
import { isServiceError } from '#app/service-errors.server.ts'
import type { RunNotQueuedError } from '#server/research/start-run.ts'

/** For `startRun(...).catch(refuseUnqueuedRun)`: rethrows anything else as it is. */
export function refuseUnqueuedRun(error: unknown): never {
  if (!isServiceError<RunNotQueuedError>(error, 'RunNotQueuedError')) throw error
  throw data(`The run could not be queued, so none was started. Try again in ${error.retryAfterSeconds} seconds.`, {
    status: 503,
    statusText: 'Service Unavailable',
  })
}

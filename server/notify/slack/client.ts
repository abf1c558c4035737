// chat.postMessage over fetch, against SLACK_API_URL (Slack, or a stub in tests). Slack answers 429
// with Retry-After when rate limited, and HTTP 200 with { ok: false, error } for everything else.
import { DeliveryError, retryAfterSeconds, unreachable } from '#server/notify/delivery-error.ts'

export type SlackClientOptions = { apiUrl: string; token: string; timeoutMs: number }

// Slack's own errors that say "try again" rather than "this will never work".
const TRANSIENT = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'ratelimited'])

export async function postSlackMessage(
  options: SlackClientOptions,
  message: { channel: string; threadTs: string; text: string },
): Promise<{ ts: string }> {
  let response: Response
  try {
    response = await fetch(new URL('chat.postMessage', options.apiUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        channel: message.channel,
        thread_ts: message.threadTs,
        text: message.text,
        unfurl_links: false,
        unfurl_media: false,
      }),
      signal: AbortSignal.timeout(options.timeoutMs),
    })
  } catch (error) {
    throw unreachable('Slack', error)
  }
  if (response.status === 429) {
    await response.body?.cancel()
    throw new DeliveryError(
      'Slack rate limited the message',
      'later',
      retryAfterSeconds(response.headers.get('retry-after')),
    )
  }
  if (response.status >= 500) {
    await response.body?.cancel()
    throw new DeliveryError(`Slack answered ${response.status}`, 'later')
  }
  const body = (await response.json().catch(() => undefined)) as
    | { ok?: boolean; error?: string; ts?: string }
    | undefined
  if (body?.ok && body.ts) return { ts: body.ts }
  const error = body?.error ?? `HTTP ${response.status} without a Slack answer`
  throw new DeliveryError(`Slack refused the message: ${error}`, TRANSIENT.has(error) ? 'later' : 'never')
}

// Pull request comments through GitHub's REST API over fetch (GITHUB_API_URL: github.com, GitHub
// Enterprise's /api/v3, or a stub in tests). Rate limits come as 403 or 429 with Retry-After or
// x-ratelimit-reset; both wait and retry.
import { DeliveryError, retryAfterSeconds, unreachable } from '#server/notify/delivery-error.ts'

export type GithubClientOptions = { apiUrl: string; token: string; timeoutMs: number }

export async function postIssueComment(
  options: GithubClientOptions,
  comment: { repo: string; issueNumber: number; body: string },
): Promise<{ id: number }> {
  const [owner, name] = comment.repo.split('/') as [string, string]
  const url = `${options.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/issues/${comment.issueNumber}/comments`
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.token}`,
        accept: 'application/vnd.github+json',
        'content-type': 'application/json',
        'user-agent': 'sextant',
        'x-github-api-version': '2022-11-28',
      },
      body: JSON.stringify({ body: comment.body }),
      signal: AbortSignal.timeout(options.timeoutMs),
    })
  } catch (error) {
    throw unreachable('GitHub', error)
  }
  const body = (await response.json().catch(() => undefined)) as { id?: number; message?: string } | undefined
  if (response.status === 201 && typeof body?.id === 'number') return { id: body.id }
  const wait = rateLimitWait(response)
  if (wait !== undefined) throw new DeliveryError('GitHub rate limited the comment', 'later', wait)
  if (response.status >= 500) throw new DeliveryError(`GitHub answered ${response.status}`, 'later')
  throw new DeliveryError(
    `GitHub refused the comment (${response.status}): ${body?.message ?? 'no reason given'}`,
    'never',
  )
}

/** Seconds to wait when this answer is a rate limit (primary or secondary), else undefined. */
function rateLimitWait(response: Response): number | undefined {
  if (response.status !== 403 && response.status !== 429) return undefined
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'))
  if (retryAfter !== undefined) return retryAfter
  if (response.headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(response.headers.get('x-ratelimit-reset'))
    return Number.isFinite(reset) ? Math.max(1, Math.ceil(reset - Date.now() / 1000)) : 60
  }
  return response.status === 429 ? 60 : undefined
}

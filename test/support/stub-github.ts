// A stand-in for GitHub's REST API (pass as GITHUB_API_URL): POST /repos/{owner}/{repo}/issues/{n}/comments
// with the real wire format. It checks the bearer token, answers 201 with the comment, rate limits on
// demand (403 with Retry-After, GitHub's secondary limit), and records every comment.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type StubGithubComment = { repo: string; issueNumber: number; body: string; id: number; at: number }

export type StubGithub = {
  url: string
  comments: StubGithubComment[]
  /** Status of every request, in order. */
  statuses: number[]
  rateLimitNext: (times: number, retryAfterSeconds: number) => void
  waitForComments: (
    repo: string,
    issueNumber: number,
    count: number,
    timeoutMs?: number,
  ) => Promise<StubGithubComment[]>
  close: () => Promise<void>
}

export async function startStubGithub(options: { token: string }): Promise<StubGithub> {
  const comments: StubGithubComment[] = []
  const statuses: number[] = []
  let rateLimited = 0
  let retryAfter = 1
  let nextId = 1000

  const server = http.createServer(async (req, res) => {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const answer = (status: number, body: object, headers: Record<string, string> = {}) => {
      statuses.push(status)
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body))
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(req.url ?? '')
    if (req.method !== 'POST' || !match) {
      return answer(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' })
    }
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      return answer(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' })
    }
    if (rateLimited > 0) {
      rateLimited -= 1
      return answer(
        403,
        { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
        { 'retry-after': String(retryAfter) },
      )
    }
    let body: { body?: string }
    try {
      body = JSON.parse(raw)
    } catch {
      return answer(400, { message: 'Problems parsing JSON' })
    }
    if (!body.body) return answer(422, { message: 'Validation Failed', errors: [{ field: 'body', code: 'missing' }] })
    if (body.body.length > 65_536) return answer(422, { message: 'Validation Failed: body is too long' })
    const repo = `${decodeURIComponent(match[1] as string)}/${decodeURIComponent(match[2] as string)}`
    const comment = { repo, issueNumber: Number(match[3]), body: body.body, id: nextId++, at: Date.now() }
    comments.push(comment)
    answer(201, {
      id: comment.id,
      body: comment.body,
      html_url: `https://github.com/${repo}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
      user: { login: 'sextant[bot]', type: 'Bot' },
    })
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    comments,
    statuses,
    rateLimitNext(times, seconds) {
      rateLimited = times
      retryAfter = seconds
    },
    async waitForComments(repo, issueNumber, count, timeoutMs = 30_000) {
      const deadline = performance.now() + timeoutMs
      for (;;) {
        const found = comments.filter((comment) => comment.repo === repo && comment.issueNumber === issueNumber)
        if (found.length >= count) return found
        if (performance.now() > deadline) {
          throw new Error(
            `${repo}#${issueNumber} has ${found.length} comments, wanted ${count}: ${JSON.stringify(found)}`,
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

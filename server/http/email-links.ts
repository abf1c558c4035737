// The two links in Sextant's emails, which work without signing in (a mail client has no session):
// /email/confirm verifies an address (its token is good once, for a day), /email/unsubscribe stops
// one series' digests to one address. Unsubscribing also answers the one-click POST mail clients
// send for List-Unsubscribe-Post (RFC 8058), so it is mounted before the pages' same-origin check.
// The answers are small pages of their own: nothing here needs the app shell or a session.
import { type Request, type Response, Router } from 'express'
import type { WebServices } from '#server/services.ts'

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}

function sendPage(res: Response, status: number, title: string, message: string): void {
  res
    .status(status)
    .type('html')
    .set('Cache-Control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<title>${escapeHtml(title)} · Sextant</title></head><body><main><h1>${escapeHtml(title)}</h1>` +
        `<p>${escapeHtml(message)}</p><p><a href="/dashboard">Sextant</a></p></main></body></html>`,
    )
}

function tokenOf(req: Request): string | undefined {
  const token = req.query.token
  return typeof token === 'string' && token.length > 0 && token.length <= 300 ? token : undefined
}

export function emailLinkRoutes(services: WebServices): Router {
  const router = Router()
  const { email } = services

  router.get('/email/confirm', async (req, res) => {
    const token = tokenOf(req)
    if (!token)
      return sendPage(res, 400, 'Link incomplete', 'This confirmation link has no token: copy the whole link.')
    const confirmed = await email.confirm(token)
    if (!confirmed) {
      return sendPage(
        res,
        404,
        'Link not valid',
        'This confirmation link was used already, has expired (after 24 hours) or is not one of ours. ' +
          'Add the address again to get a new one.',
      )
    }
    sendPage(res, 200, 'Address confirmed', `Digests can now be sent to ${confirmed.address}.`)
  })

  async function unsubscribe(req: Request, res: Response) {
    const token = tokenOf(req)
    if (!token) return sendPage(res, 400, 'Link incomplete', 'This unsubscribe link has no token: copy the whole link.')
    if (!(await email.unsubscribe(token))) {
      return sendPage(res, 404, 'Link not valid', 'This unsubscribe link is not one of ours, or its topic was deleted.')
    }
    sendPage(res, 200, 'Unsubscribed', 'You will get no more digests of this topic at this address.')
  }
  router.get('/email/unsubscribe', unsubscribe)
  router.post('/email/unsubscribe', unsubscribe)
  return router
}

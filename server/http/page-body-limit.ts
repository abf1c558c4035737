// Page form posts (login, signup, trial, every dashboard action) are read by React Router's
// request.formData(), which buffers the whole body with no limit: one 64 MB post froze the process
// and a few at once ran it out of heap. So a page body is judged by its headers before anything
// reads it: a form (URL-encoded, the only kind our pages send), with a Content-Length, at most
// 64 KiB. Node's parser never delivers more than the declared length, so nothing larger is read.
import type { RequestHandler } from 'express'
import { sendProblem } from '#server/http/problem.ts'

export const PAGE_BODY_LIMIT_BYTES = 64 * 1024

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function limitPageBodies(limit = PAGE_BODY_LIMIT_BYTES): RequestHandler {
  return (req, res, next) => {
    if (BODYLESS_METHODS.has(req.method)) return next()
    const refuse = (status: number, title: string, detail: string) => {
      // The rest of the body is never read: close the connection instead of draining it.
      res.set('Connection', 'close')
      sendProblem(res, { status, title, detail })
    }
    if (req.get('transfer-encoding') !== undefined) {
      return refuse(411, 'Length Required', 'Send the form with a Content-Length header.')
    }
    const length = Number(req.get('content-length') ?? '0')
    if (!Number.isSafeInteger(length) || length < 0) {
      return refuse(400, 'Bad Request', 'The Content-Length header is not a number of bytes.')
    }
    if (length === 0) return next()
    if (length > limit) {
      return refuse(413, 'Content Too Large', `A form may be at most ${limit / 1024} KiB; this one is ${length} bytes.`)
    }
    if (!req.is('application/x-www-form-urlencoded')) {
      return refuse(
        415,
        'Unsupported Media Type',
        `Send the form as application/x-www-form-urlencoded (got ${req.get('content-type') ?? 'no Content-Type'}).`,
      )
    }
    next()
  }
}

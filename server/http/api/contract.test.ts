// `reply` binds a handler's answer to its operation's contract at compile time: `npm run typecheck`
// (part of `npm test`) fails on each `@ts-expect-error` below if the body it marks were accepted.
import type { Response } from 'express'
import { expect, test, vi } from 'vitest'
import { reply } from '#server/http/api/contract.ts'
import { keysContract } from '#server/http/api/keys.ts'
import { seriesContract } from '#server/http/api/series.ts'

function fakeResponse() {
  const res = { status: vi.fn(), json: vi.fn() }
  res.status.mockReturnValue(res)
  return res
}

test('reply sends the body with the status the contract documents', () => {
  const res = fakeResponse()
  reply(res as unknown as Response, seriesContract['/api/series'].get, '200', { series: [] })
  expect(res.status).toHaveBeenCalledWith(200)
  expect(res.json).toHaveBeenCalledWith({ series: [] })
})

test('a body or a status the contract does not document fails the type check', () => {
  const res = fakeResponse() as unknown as Response
  const list = seriesContract['/api/series'].get
  const key = { prefix: 'sx_abcdefgh', name: 'laptop', kind: 'standard', createdAt: '', lastUsedAt: null }
  // @ts-expect-error: the list is { series: [...] }, not an array
  reply(res, list, '200', [])
  // @ts-expect-error: a field the contract does not have
  reply(res, list, '200', { series: [], extra: true })
  // @ts-expect-error: 201 is no answer of this operation
  reply(res, list, '201', { series: [] })
  // @ts-expect-error: a problem is thrown as an HttpProblem, not replied
  reply(res, list, '401', { title: 'Unauthorized' })
  // @ts-expect-error: a key's view has no secret but in the answer that creates it
  reply(res, keysContract['/api/keys/{prefix}'].delete, '200', { ...key, key: 'sx_secret' })
  expect(true).toBe(true)
})

import { expect, test } from 'vitest'
import { callWithRetries, parseRetryAfter } from '#server/providers/retry.ts'
import { ProviderError } from '#server/providers/types.ts'

const classify = (error: unknown) =>
  error instanceof ProviderError ? error : new ProviderError('test', String(error), { retryable: true })

test('retries retryable failures, honouring Retry-After, until one succeeds', async () => {
  let calls = 0
  const started = Date.now()
  const result = await callWithRetries(
    async () => {
      calls += 1
      if (calls < 3) throw new ProviderError('test', 'busy', { retryable: true, status: 429, retryAfterMs: 50 })
      return 'ok'
    },
    { signal: new AbortController().signal, timeoutMs: 1000, baseDelayMs: 1, classify },
  )
  expect(result).toBe('ok')
  expect(calls).toBe(3)
  expect(Date.now() - started).toBeGreaterThanOrEqual(100) // two Retry-Afters of 50 ms, by the clock
})

test('each attempt, a retry too, waits for the provider’s shared turn first', async () => {
  const order: string[] = []
  const result = await callWithRetries(
    async () => {
      order.push('call')
      if (order.filter((step) => step === 'call').length < 2)
        throw new ProviderError('test', 'busy', { retryable: true })
      return 'ok'
    },
    {
      signal: new AbortController().signal,
      timeoutMs: 1000,
      baseDelayMs: 1,
      classify,
      turn: async () => {
        order.push('turn')
      },
    },
  )
  expect(result).toBe('ok')
  expect(order).toEqual(['turn', 'call', 'turn', 'call'])
})

test('a non-retryable failure is thrown at once; attempts are bounded', async () => {
  let calls = 0
  const refuse = callWithRetries(
    async () => {
      calls += 1
      throw new ProviderError('test', 'bad key', { retryable: false, status: 401 })
    },
    { signal: new AbortController().signal, timeoutMs: 1000, classify },
  )
  await expect(refuse).rejects.toThrow('bad key')
  expect(calls).toBe(1)

  let tries = 0
  await expect(
    callWithRetries(
      async () => {
        tries += 1
        throw new Error('down')
      },
      { signal: new AbortController().signal, timeoutMs: 1000, attempts: 4, baseDelayMs: 1, classify },
    ),
  ).rejects.toThrow('down')
  expect(tries).toBe(4)
})

test('each attempt times out, and the run signal stops everything', async () => {
  let aborted = 0
  const hang = (signal: AbortSignal) =>
    new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => {
        aborted++
        reject(signal.reason)
      }),
    )
  await expect(
    callWithRetries(hang, {
      signal: new AbortController().signal,
      timeoutMs: 30,
      attempts: 2,
      baseDelayMs: 1,
      classify,
    }),
  ).rejects.toBeInstanceOf(ProviderError)
  expect(aborted).toBe(2)

  const run = new AbortController()
  setTimeout(() => run.abort(new Error('deadline')), 20)
  await expect(callWithRetries(hang, { signal: run.signal, timeoutMs: 10_000, classify })).rejects.toThrow('deadline')
})

test('Retry-After in seconds or as a date', () => {
  expect(parseRetryAfter('3')).toBe(3000)
  expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:10 GMT', Date.parse('Sat, 21 Nov 2026 10:00:00 GMT'))).toBe(10_000)
  expect(parseRetryAfter('soon')).toBeUndefined()
  expect(parseRetryAfter(null)).toBeUndefined()
})

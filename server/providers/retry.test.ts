import { expect, test } from 'vitest'
import { callWithRetries, parseRetryAfter } from '#server/providers/retry.ts'
import { ProviderError } from '#server/providers/types.ts'
import { type ProviderNews, reportingWaits } from '#server/providers/waits.ts'

const classify = (error: unknown) =>
  error instanceof ProviderError ? error : new ProviderError('test', String(error), { retryable: true })

test('retries retryable failures, honouring Retry-After, until one succeeds', async () => {
  let calls = 0
  const started = performance.now()
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
  expect(performance.now() - started).toBeGreaterThanOrEqual(100) // two Retry-Afters of 50 ms, by the clock
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
      turn: {
        take: async () => {
          order.push('turn')
          return () => order.push('released')
        },
        pause: async () => {
          order.push('pause')
        },
      },
    },
  )
  expect(result).toBe('ok')
  // A failure that is no 429 pauses no one; each call gives its place back when it ends, once.
  expect(order).toEqual(['turn', 'call', 'released', 'turn', 'call', 'released'])
})

test('a 429 pauses the provider for every process, is reported to the run, and does not use up the attempts while the run has time', async () => {
  const order: string[] = []
  let calls = 0
  const waits: ProviderNews[] = []
  const result = await reportingWaits(
    (wait) => waits.push(wait),
    () =>
      callWithRetries(
        async () => {
          calls += 1
          order.push('call')
          if (calls <= 5)
            throw new ProviderError('exa', 'rate limited', { retryable: true, status: 429, retryAfterMs: 2 })
          return 'ok'
        },
        {
          signal: AbortSignal.timeout(60_000),
          timeoutMs: 1000,
          attempts: 3,
          classify,
          turn: {
            take: async () => () => {},
            pause: async (ms) => {
              order.push(`pause ${ms}`)
            },
          },
        },
      ),
  )
  // Five 429s, more than the three attempts, and the call still succeeds.
  expect(result).toBe('ok')
  expect(calls).toBe(6)
  expect(order.filter((step) => step.startsWith('pause'))).toEqual(Array(5).fill('pause 2'))
  // Each wait is reported, and then that the provider answered again.
  expect(waits).toEqual([
    ...Array(5).fill({ provider: 'exa', ms: 2, why: 'rate_limited' }),
    { provider: 'exa', why: 'answered' },
  ])

  // A run that ends while the provider still refuses stops waiting with its own reason.
  const controller = new AbortController()
  const refused = callWithRetries(
    async () => {
      setTimeout(() => controller.abort(new Error('the run was cancelled')), 5)
      throw new ProviderError('exa', 'rate limited', { retryable: true, status: 429, retryAfterMs: 60_000 })
    },
    { signal: controller.signal, timeoutMs: 1000, classify },
  )
  await expect(refused).rejects.toThrow('the run was cancelled')
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

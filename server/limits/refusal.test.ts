import { expect, test } from 'vitest'
import { describeWait } from '#server/limits/refusal.ts'

test('waits are described in the largest sensible unit, rounded up', () => {
  expect(describeWait(1)).toBe('1 second')
  expect(describeWait(45)).toBe('45 seconds')
  expect(describeWait(60)).toBe('1 minute')
  expect(describeWait(719)).toBe('12 minutes')
  expect(describeWait(89 * 60)).toBe('89 minutes')
  expect(describeWait(90 * 60)).toBe('2 hours')
  expect(describeWait(23 * 3600 + 1)).toBe('24 hours')
})

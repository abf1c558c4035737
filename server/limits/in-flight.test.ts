import { expect, test } from 'vitest'
import { createInFlightGate } from '#server/limits/in-flight.ts'

test('each key gets its slots; a freed slot can be taken again; freeing twice frees once', () => {
  const gate = createInFlightGate(2)
  const first = gate.enter('a')
  const second = gate.enter('a')
  expect(first && second).toBeTruthy()
  expect(gate.enter('a')).toBeUndefined()
  expect(gate.enter('b')).toBeDefined()
  first?.()
  first?.()
  const third = gate.enter('a')
  expect(third).toBeDefined()
  expect(gate.enter('a')).toBeUndefined()
})

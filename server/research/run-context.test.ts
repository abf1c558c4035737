// A step takes the outputs of the steps before it, read from the checkpoint.
import { expect, test } from 'vitest'
import { type Checkpoint, stepInput } from '#server/research/run-context.ts'

const usage = { inputTokens: 0, outputTokens: 0 }
const checkpoint: Checkpoint = {
  load_memory: { baseline: true, since: null, ledger: ['https://read.example/a'] },
  plan: { queries: ['tidal power'], fallback: false, usage },
  search: { sources: [], searchCalls: 1, costDollars: 0, removedByLedger: 0, usage },
}

test('a step takes only the outputs of the steps before it that it reads', () => {
  expect(stepInput('load_memory', checkpoint)).toEqual({})
  expect(stepInput('plan', checkpoint)).toEqual({ load_memory: checkpoint.load_memory })
  expect(Object.keys(stepInput('synthesize', checkpoint))).toEqual(['load_memory', 'plan', 'search'])
})

test('a checkpoint without an output a step takes is said, not read as empty', () => {
  expect(() => stepInput('save_memory', checkpoint)).toThrow("The run's save_memory step has no synthesize output")
  expect(() => stepInput('search', { plan: checkpoint.plan })).toThrow('has no load_memory output')
})

import { expect, test } from 'vitest'
import { checkpointJson } from '#server/research/runs.ts'

test("a checkpoint's JSON is its steps' in order, each step's output serialized once, when first asked for", () => {
  let serialized = 0
  const counted = { toJSON: () => ++serialized && { sources: ['https://a.test/'] } }
  const checkpoint = checkpointJson({ load_memory: { baseline: true, ledger: [] } })
  checkpoint.add('plan', { queries: ['grid batteries'] })
  checkpoint.add('search', counted)
  // The run's last step goes to its end, not a boundary: nothing asks, nothing is serialized.
  expect(serialized).toBe(0)
  const expected = {
    load_memory: { baseline: true, ledger: [] },
    plan: { queries: ['grid batteries'] },
    search: { sources: ['https://a.test/'] },
  }
  expect(JSON.parse(checkpoint.json())).toEqual(expected)
  expect(checkpoint.json()).toBe(JSON.stringify(expected))
  expect(serialized).toBe(1)
  // A step added again (a resumed run's) replaces its output in place.
  checkpoint.add('plan', { queries: ['sodium batteries'] })
  expect(JSON.parse(checkpoint.json())).toEqual({ ...expected, plan: { queries: ['sodium batteries'] } })
  expect(serialized).toBe(1)
})

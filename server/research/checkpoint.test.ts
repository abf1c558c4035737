import { expect, test } from 'vitest'
import { generateKeySpec, parseKeyRing, seal } from '#server/crypto/key-ring.ts'
import { checkpointJson, parseCheckpoint } from '#server/research/checkpoint.ts'
import { createRunSeals, type RunRow } from '#server/runs/repository/runs.ts'

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

test('a checkpoint is parsed when read, opened: one of another shape is said, not misread', () => {
  const ring = parseKeyRing(generateKeySpec())
  const seals = createRunSeals(ring)
  const read = (row: RunRow) => parseCheckpoint(seals.checkpoint(row))
  const row = (json: string) => {
    const sealed = seal(ring, Buffer.from(json), 'run_checkpoint:run-1')
    return { id: 'run-1', checkpoint: sealed.ciphertext, checkpoint_key_id: sealed.keyId } as RunRow
  }
  const usage = { inputTokens: 3, outputTokens: 4 }
  const written = checkpointJson({ load_memory: { baseline: true, since: null, ledger: ['https://a.example/'] } })
  written.add('plan', { queries: ['grid batteries'], fallback: false, usage })
  expect(read(row(written.json()))).toMatchObject({
    success: true,
    data: { plan: { queries: ['grid batteries'], fallback: false, usage } },
  })
  // A plan whose queries were one string (another version's shape).
  const other = read(row(JSON.stringify({ plan: { queries: 'grid batteries', usage } })))
  expect(other?.success).toBe(false)
  expect(other?.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['plan.queries', 'plan.fallback'])
  expect(read({ ...row('{}'), checkpoint: null })).toBeUndefined()
})

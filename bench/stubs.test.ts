import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { pagesFor } from '#bench/stub-providers.ts'
import { startBenchStubs } from '#bench/stubs.ts'

/** Epoch ms as the harness's client and the stubs stamp them. */
const now = () => performance.timeOrigin + performance.now()

async function search(env: Record<string, string>, query: string): Promise<string[]> {
  const response = await fetch(`${env.EXA_BASE_URL}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': env.EXA_API_KEY ?? '' },
    body: JSON.stringify({ query, numResults: 10, contents: { text: true } }),
  })
  const body = (await response.json()) as { results: Array<{ url: string }> }
  return body.results.map((result) => result.url)
}

/** Gone, or a zombie nobody has reaped yet (it runs nothing). */
function isGone(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}

test('the stubs serve from a process of their own and report per topic what they served, on the harness clock', async () => {
  const stubs = await startBenchStubs({ modelMs: 0, searchMs: 0 })
  try {
    expect(stubs.pid).not.toBe(process.pid)
    expect(fs.readFileSync(`/proc/${stubs.pid}/cmdline`, 'utf8')).toContain('bench/stub-process.ts')

    const before = now()
    const response = await fetch(`${stubs.env.OPENAI_BASE_URL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stubs.env.OPENAI_API_KEY}` },
      body: JSON.stringify({
        model: 'gpt-4.1-mini',
        messages: [{ role: 'user', content: 'Topic: grid batteries\nReturn at most 2 queries.' }],
        response_format: { type: 'json_schema', json_schema: { name: 'plan', schema: {} } },
      }),
    })
    const plan = (await response.json()) as { choices: Array<{ message: { content: string } }> }
    // The bench's planner names the topic first in every query, so each search is traced to its run.
    const { queries } = JSON.parse(plan.choices[0]?.message.content ?? '{}') as { queries: string[] }
    expect(queries).toEqual(['grid batteries angle 1', 'grid batteries angle 2'])
    for (const query of queries) await search(stubs.env, query)
    await search(stubs.env, 'heat pumps angle 1')
    const after = now()

    const calls = await stubs.callsFor('grid batteries')
    expect(calls.map((call) => call.kind).sort()).toEqual(['model', 'search', 'search'])
    // Stamped in the stub process, compared with this one's stamps: the clocks are the same one
    // (within a millisecond, for the rounding of the two processes' time origins).
    for (const call of calls) {
      expect(call.startedAt).toBeGreaterThanOrEqual(before - 1)
      expect(call.endedAt).toBeGreaterThanOrEqual(call.startedAt)
      expect(call.endedAt).toBeLessThanOrEqual(after + 1)
    }
    const served = await stubs.servedFor('grid batteries')
    expect(served).toMatchObject({ searches: 2, results: 20 })
    expect(served.promptTokens).toBeGreaterThan(0)
    expect(Object.keys(served.byKind)).toEqual(['plan'])
    expect(await stubs.servedFor('heat pumps')).toMatchObject({ searches: 1, results: 10, promptTokens: 0 })
    expect(stubs.cpuMs()).toBeGreaterThan(0)
  } finally {
    await stubs.close()
  }
})

test('a topic’s new share reaches the stub process; a share out of range is refused and the process goes on', async () => {
  const stubs = await startBenchStubs({ modelMs: 0, searchMs: 0 })
  try {
    await stubs.setNewShare('all new', 1)
    const first = await search(stubs.env, 'all new angle 1')
    const second = await search(stubs.env, 'all new angle 1')
    expect(second.filter((url) => first.includes(url))).toEqual([])

    // The default share keeps most of a query's pages when it is asked again.
    const kept = await search(stubs.env, 'some new angle 1')
    const again = await search(stubs.env, 'some new angle 1')
    expect(again.filter((url) => kept.includes(url)).length).toBeGreaterThan(0)

    await expect(stubs.setNewShare('all new', 2)).rejects.toThrow(/bad request/)
    expect(await stubs.servedFor('all new')).toMatchObject({ searches: 2 })
  } finally {
    await stubs.close()
  }
})

test('close stops the stub process, and asking it afterwards fails instead of waiting', async () => {
  const stubs = await startBenchStubs({ modelMs: 0, searchMs: 0 })
  await stubs.close()
  await stubs.close()
  expect(isGone(stubs.pid)).toBe(true)
  await expect(stubs.callsFor('any')).rejects.toThrow(/stub process exited/)
})

test('the stub process ends when the harness dies without closing it', async () => {
  const harness = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { startBenchStubs } from '#bench/stubs.ts'
       const stubs = await startBenchStubs({ modelMs: 0, searchMs: 0 })
       console.log(stubs.pid)
       setInterval(() => {}, 1000)`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  for await (const chunk of harness.stdout) {
    output += chunk
    if (output.includes('\n')) break
  }
  const pid = Number(output.trim())
  expect(pid).toBeGreaterThan(0)
  try {
    expect(isGone(pid)).toBe(false)
    harness.kill('SIGKILL') // no handler runs: only the closed IPC channel tells the stub process
    for (let i = 0; i < 200 && !isGone(pid); i++) await sleep(50)
    expect(isGone(pid)).toBe(true)
  } finally {
    // An orphan would hold this test's output open and keep vitest waiting.
    if (!isGone(pid)) process.kill(pid, 'SIGKILL')
  }
}, 30_000)

test('a restating page states the figure, year and place its old page led with, in another order', () => {
  const [old] = pagesFor('wave power angle 1', 1, 0, { share: 1, restating: true, seed: ' angle 1' })
  const [restating] = pagesFor('wave power angle 1', 1, 1, { share: 1, restating: true, seed: ' angle 1' })
  const lead = (old?.text ?? '').split('. ')[0] as string
  const brief = (restating?.text ?? '').split('\n\n')[0] as string
  expect(restating?.url).not.toBe(old?.url)
  expect(brief).not.toBe(lead)
  const facts = (text: string) =>
    (text.match(/\d+ (?:MW|units|percent|million dollars)|20\d\d|in [A-Z]\w+/g) ?? []).sort()
  expect(facts(brief)).toEqual(facts(lead.replace(/^[^:]*: /, '')))
  expect(facts(brief).length).toBeGreaterThanOrEqual(3)
})

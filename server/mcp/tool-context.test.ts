// `ok` binds a tool's structured content to its output schema (server/contracts/mcp.ts) at compile
// time: `npm run typecheck` (part of `npm test`) fails on each `@ts-expect-error` below if the content
// it marks were accepted.
import { expect, test } from 'vitest'
import { ExportTopicOutput, RunStatusOutput } from '#server/contracts/mcp.ts'
import { ok } from '#server/mcp/tool-context.ts'

test('ok answers the structured content, and its JSON as text when no text is given', () => {
  const answer = ok(ExportTopicOutput, { topic: 'heat pumps', markdown: '# heat pumps' })
  expect(answer.structuredContent).toEqual({ topic: 'heat pumps', markdown: '# heat pumps' })
  expect(answer.content).toEqual([{ type: 'text', text: JSON.stringify(answer.structuredContent, null, 2) }])
  expect(ok(ExportTopicOutput, { topic: 't', markdown: 'm' }, 'm').content).toEqual([{ type: 'text', text: 'm' }])
})

test('content the output schema does not describe fails the type check', () => {
  // @ts-expect-error: markdown is required
  ok(ExportTopicOutput, { topic: 'heat pumps' })
  // @ts-expect-error: a field the schema does not have
  ok(ExportTopicOutput, { topic: 'heat pumps', markdown: '', extra: 1 })
  const status = {
    runId: '00000000-0000-4000-8000-000000000000',
    topic: 'heat pumps',
    currentStep: null,
    createdAt: '2026-12-02T00:00:00.000Z',
    finishedAt: null,
  }
  ok(RunStatusOutput, { ...status, status: 'running' })
  // @ts-expect-error: a status that is not one of the run statuses
  ok(RunStatusOutput, { ...status, status: 'sleeping' })
  expect(true).toBe(true)
})

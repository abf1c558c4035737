import { expect, test } from 'vitest'
import { digestEmail } from '#server/notify/email/digest.ts'
import { RULES_JUDGED } from '#server/research/report-summary.ts'
import type { Report } from '#server/research/report-types.ts'
import type { RunView } from '#server/runs/contract.ts'

const links = { runUrl: 'https://sextant.example/dashboard/runs/r1', unsubscribeUrl: 'https://sextant.example/u?t=1' }

function runWith(delta: Partial<Report['delta']>, judge?: 'model' | 'rules'): RunView {
  const report = {
    sources: [{ n: 1, url: 'https://news.example/a' }],
    generatedWith: {
      synthesis: 'x',
      synthesisKind: 'model',
      search: 'exa',
      plan: 'model',
      ...(judge ? { judge } : {}),
    },
    delta: {
      baseline: false,
      since: null,
      newFindings: [],
      updated: [],
      contradicted: [],
      confirmed: 0,
      summary: '',
      ...delta,
    },
  }
  return { runId: 'r1', brief: { topic: 'Harbour tram' }, report } as unknown as RunView
}

test('a digest of a run that changed nothing says so, with what it confirmed, instead of an empty body', () => {
  const email = digestEmail(runWith({ confirmed: 2 }), 'a@example.com', links)
  expect(email.subject).toBe('Harbour tram: nothing new')
  const said =
    'Nothing new, updated or contradicted since the last run. 2 claims were confirmed: memory already held them.'
  expect(email.text).toContain(said)
  expect(email.html).toContain(`<p>${said}</p>`)
})

test('a new finding the rules could not tell from one memory held shows it beside it', () => {
  const finding = {
    text: 'The council voted down the loan.',
    quote: 'The council voted down the loan.',
    sources: [1],
    memoryHeld: { text: 'Lawmakers approved the loan.', seenAt: '2026-10-01T00:00:00.000Z', urls: [] },
  }
  const email = digestEmail(runWith({ newFindings: [finding] }), 'a@example.com', links)
  expect(email.text).toContain('- The council voted down the loan.\n  (memory held: Lawmakers approved the loan.)')
  expect(email.html).toContain('<div>Memory held: Lawmakers approved the loan.</div>')
  expect(email.text).not.toContain('Nothing new')
})

test('changes rules alone compared with memory say so, after them; a model judge, or nothing changed, says nothing of it', () => {
  const finding = { text: 'The depot opens in May.', quote: 'opens in May', sources: [1] }
  const email = digestEmail(runWith({ newFindings: [finding] }, 'rules'), 'a@example.com', links)
  expect(email.text).toContain(
    `- The depot opens in May.\n  "opens in May"\n  https://news.example/a\n\n${RULES_JUDGED}\n`,
  )
  expect(email.html).toContain(`<p><em>${RULES_JUDGED}</em></p>`)
  expect(digestEmail(runWith({ newFindings: [finding] }, 'model'), 'a@example.com', links).text).not.toContain(
    RULES_JUDGED,
  )
  expect(digestEmail(runWith({ confirmed: 1 }, 'rules'), 'a@example.com', links).text).not.toContain(RULES_JUDGED)
})

test('a digest of a run whose sources are not the web says where they came from, first', () => {
  const run = runWith({ confirmed: 1 })
  const notice = 'This report searched the sample corpus bundled with Sextant: invented articles, not the web.'
  ;(run.report as { notice?: string }).notice = notice
  const email = digestEmail(run, 'a@example.com', links)
  expect(email.text.split('\n').slice(0, 3)).toEqual(['What changed in "Harbour tram"', '', notice])
  expect(email.html).toContain(`<p><strong>${notice}</strong></p>`)
})

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import {
  CorpusError,
  loadNarrativeTopic,
  loadNarrativeWeb,
  parsePage,
  shapeProblems,
} from '#bench/quality/narrative.ts'
import { lookup } from '#bench/quality/registry.ts'

const HEADER = 'url: https://www.harbourpost.example/news/2026/03/grant\ntitle: Council backs the line\n---\n'
const FILLER = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')

test('a page: the tags come out of its text, and each tagged sentence states its fact version', () => {
  const page = parsePage(
    `${HEADER}Home | News | Sport\n\n[[grant@2| “We have voted the grant down,” the mayor said. ]] The weather was fine.`,
    'grant.txt',
    'narrative-tram',
  )
  expect(page.text).toBe('Home | News | Sport\n\n“We have voted the grant down,” the mayor said. The weather was fine.')
  expect(page.statements).toEqual([
    { fact: 'narrative-tram/grant', version: 1, text: '“We have voted the grant down,” the mayor said.' },
  ])
  expect(page.passing).toBe(false)
})

test('a malformed page is refused with its file named', () => {
  expect(() => parsePage('no header here', 'a.txt', 'd')).toThrow(CorpusError)
  expect(() => parsePage(`${HEADER}[[grant@1 The council approved it.]]`, 'b.txt', 'd')).toThrow(/b\.txt: a tag/)
  expect(() => parsePage(HEADER.replace('harbourpost.example', 'harbourpost.com'), 'c.txt', 'd')).toThrow(/url/)
})

function writeTopic(pages: Record<string, string>, facts: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-narrative-'))
  fs.writeFileSync(path.join(dir, 'topic.json'), JSON.stringify({ topic: 'tram', split: 'development', facts }))
  for (const [file, body] of Object.entries(pages)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true })
    const url = `https://www.post.example/${file.replace('.txt', '')}`
    fs.writeFileSync(path.join(dir, file), `url: ${url}\ntitle: ${file}\n---\n${body} ${FILLER}`)
  }
  return dir
}

test("each epoch's plan is read from the tags: new, restated, updated, contradicted", () => {
  const pages: Record<string, string> = {}
  for (let epoch = 1; epoch <= 3; epoch++) {
    for (let i = 0; i < 4; i++) pages[`${epoch}/p${i}.txt`] = 'Nothing here.'
  }
  pages['1/p0.txt'] = '[[grant@1| The council approved the grant. ]] [[riders@1| It carries 21,000 riders a day. ]]'
  pages['2/p0.txt'] = '[[grant@2| The council voted the grant down. ]] [[riders@1| Some 21,000 people use it daily. ]]'
  pages['3/p0.txt'] = '[[riders@2| Daily ridership has reached 24,500. ]] [[depot@1| The depot will be at Quay Road. ]]'
  const dir = writeTopic(pages, {
    grant: { kind: 'polarity', negative: [2] },
    riders: { kind: 'figure' },
    depot: { kind: 'event' },
  })
  try {
    const topic = loadNarrativeTopic(dir)
    const plans = topic.epochs.map((epoch) => epoch.plan)
    const d = topic.domain
    expect(plans[0]).toEqual({ new: [`${d}/grant@0`, `${d}/riders@0`], updated: [], contradicted: [], restated: [] })
    expect(plans[1]).toEqual({ new: [], updated: [], contradicted: [`${d}/grant@1`], restated: [`${d}/riders@0`] })
    expect(plans[2]).toEqual({ new: [`${d}/depot@0`], updated: [`${d}/riders@1`], contradicted: [], restated: [] })
    const riders = topic.facts.find((fact) => fact.key === `${d}/riders`)
    expect(riders?.versions[0]?.wordings).toEqual([
      'It carries 21,000 riders a day.',
      'Some 21,000 people use it daily.',
    ])
    expect(topic.facts.find((fact) => fact.key === `${d}/grant`)?.versions.map((v) => v.positive)).toEqual([
      true,
      false,
    ])
    // A later epoch serves two earlier URLs again, which the engine's ledger must skip.
    expect(topic.epochs[1]?.served).toHaveLength(6)
    // Too few facts, no passing pages: the shape check says so.
    expect(shapeProblems(topic)).toEqual(expect.arrayContaining([expect.stringMatching(/passing/)]))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('every topic of the corpus loads, holds the changes the benchmark measures, and has one meaning a sentence', () => {
  const web = loadNarrativeWeb()
  expect(web.topics.length).toBeGreaterThanOrEqual(8)
  expect(web.topics.filter((topic) => topic.split === 'held-out').length).toBeGreaterThanOrEqual(4)
  expect(web.topics.flatMap(shapeProblems)).toEqual([])
  const urls = web.topics.flatMap((topic) => topic.epochs.flatMap((epoch) => epoch.pages.map((page) => page.url)))
  expect(new Set(urls).size).toBe(urls.length)
  // Every tagged sentence is found again through the registry the scorer reads, as what it states.
  for (const topic of web.topics) {
    for (const page of topic.epochs.flatMap((epoch) => epoch.pages)) {
      for (const statement of page.statements) {
        expect(lookup(web.registry, statement.text)).toEqual({
          kind: 'fact',
          fact: statement.fact,
          version: statement.version,
        })
      }
    }
  }
})

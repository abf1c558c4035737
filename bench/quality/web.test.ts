import { expect, test } from 'vitest'
import { lookup } from '#bench/quality/registry.ts'
import { splitSentences } from '#bench/quality/sloppy-model.ts'
import { DOMAINS, generateWeb, selectFacts, versionKey } from '#bench/quality/web.ts'
import { compareStatements, extractStatements, figureKey } from '#server/claims/figures.ts'
import { opposed, polarity } from '#server/claims/subject.ts'

const SEEDS = [1, 2, 3, 4, 5, 6]

/** Figures and dates as comparable text: "usd/kwh=80 | 2026-03". */
function stated(text: string): string {
  const statements = extractStatements(text)
  return `${statements.figures.map(figureKey).sort().join(', ')} | ${statements.dates.join(', ')}`
}

test('the same seed makes the same web, another seed another one', () => {
  const once = generateWeb({ seed: 7, factsPerTopic: 20 })
  const again = generateWeb({ seed: 7, factsPerTopic: 20 })
  const other = generateWeb({ seed: 8, factsPerTopic: 20 })
  expect(JSON.stringify(again.topics)).toBe(JSON.stringify(once.topics))
  expect(JSON.stringify(other.topics)).not.toBe(JSON.stringify(once.topics))
})

test('every wording of a version states the same figures and dates, as the engine reads them', () => {
  for (const seed of SEEDS) {
    for (const fact of generateWeb({ seed, factsPerTopic: 20 }).facts.values()) {
      for (const version of fact.versions) {
        const first = stated(version.wordings[0] as string)
        for (const wording of version.wordings) expect(`${fact.key}: ${stated(wording)}`).toBe(`${fact.key}: ${first}`)
        expect(version.wordings.length).toBeGreaterThanOrEqual(3)
      }
    }
  }
})

test('every change of a figure or date changes what the engine reads; a contradiction flips the statement', () => {
  for (const seed of SEEDS) {
    for (const fact of generateWeb({ seed, factsPerTopic: 20 }).facts.values()) {
      for (let i = 1; i < fact.versions.length; i++) {
        const before = fact.versions[i - 1]?.wordings[0] as string
        const after = fact.versions[i]?.wordings[0] as string
        if (fact.kind === 'polarity') {
          expect(fact.versions[i]?.positive, fact.key).toBe(!fact.versions[i - 1]?.positive)
          continue
        }
        const comparison = compareStatements(extractStatements(after), extractStatements(before))
        expect(comparison.figuresDiffer || comparison.datesDiffer, `${fact.key}: ${before} -> ${after}`).toBe(true)
        expect(fact.versions[i]?.positive).toBe(true)
      }
    }
  }
})

test('a fact that is not a contradiction keeps its polarity in every wording, as the engine reads it', () => {
  for (const fact of generateWeb({ seed: 1, factsPerTopic: 20 }).facts.values()) {
    if (fact.kind === 'polarity') continue
    for (const version of fact.versions) {
      const first = polarity(version.wordings[0] as string)
      for (const wording of version.wordings) expect(opposed(polarity(wording), first), wording).toBe(false)
    }
  }
})

test('epochs follow their plan: new facts first, then changes, contradictions and restatements of what was said', () => {
  for (const seed of SEEDS) {
    for (const topic of generateWeb({ seed, factsPerTopic: 20 }).topics) {
      const said = new Map<string, number>()
      const urls = new Set<string>()
      topic.epochs.forEach((epoch, index) => {
        const stated = new Set(epoch.pages.flatMap((page) => page.statements.map((s) => versionKey(s.fact, s.version))))
        const planned = [...epoch.plan.new, ...epoch.plan.updated, ...epoch.plan.contradicted, ...epoch.plan.restated]
        expect(new Set(planned)).toEqual(stated)
        for (const key of epoch.plan.new) expect(said.has(key.split('@')[0] as string)).toBe(false)
        for (const key of [...epoch.plan.updated, ...epoch.plan.contradicted]) {
          const [fact, version] = key.split('@') as [string, string]
          expect(said.get(fact)).toBe(Number(version) - 1)
        }
        for (const key of epoch.plan.restated) {
          const [fact, version] = key.split('@') as [string, string]
          expect(said.get(fact)).toBe(Number(version))
        }
        for (const key of stated) said.set(key.split('@')[0] as string, Number(key.split('@')[1]))
        // Only new URLs carry an epoch's pages; the URLs of earlier epochs served again are not new.
        for (const page of epoch.pages) {
          expect(urls.has(page.url)).toBe(false)
          expect(epoch.served).toContain(page.url)
        }
        const others = epoch.served.filter(
          (url) => !epoch.pages.some((page) => page.url === url) && !epoch.strays.includes(url),
        )
        for (const url of others) expect(urls.has(url)).toBe(true)
        for (const page of epoch.pages) urls.add(page.url)
        if (index > 0) expect(epoch.plan.updated.length + epoch.plan.restated.length).toBeGreaterThan(0)
      })
    }
  }
})

test("every epoch serves each topic two pages of other topics' same epoch, never a syndicated copy", () => {
  for (const seed of SEEDS) {
    const web = generateWeb({ seed, factsPerTopic: 20 })
    for (const topic of web.topics) {
      topic.epochs.forEach((epoch, index) => {
        expect(epoch.strays).toHaveLength(2)
        for (const url of epoch.strays) {
          expect(epoch.served.filter((served) => served === url)).toHaveLength(1)
          const owner = web.topics.find((other) => other.epochs[index]?.pages.some((page) => page.url === url))
          expect(owner?.domain).toBeDefined()
          expect(owner?.domain).not.toBe(topic.domain)
          expect(owner?.epochs[index]?.pages.find((page) => page.url === url)?.duplicateOf).toBeUndefined()
        }
      })
    }
  }
})

test("a page's sentences are what its statements say, and the rest is boilerplate", () => {
  const web = generateWeb({ seed: 3, factsPerTopic: 20 })
  let duplicates = 0
  for (const topic of web.topics) {
    for (const page of topic.epochs.flatMap((epoch) => epoch.pages)) {
      const facts = splitSentences(page.text)
        .map((sentence) => lookup(web.registry, sentence))
        .filter((entry) => entry?.kind !== 'boilerplate')
      expect(facts).toEqual(page.statements.map((s) => ({ kind: 'fact', fact: s.fact, version: s.version })))
      if (page.duplicateOf) {
        duplicates += 1
        const original = topic.epochs.flatMap((epoch) => epoch.pages).find((other) => other.url === page.duplicateOf)
        expect(page.text.endsWith(original?.text as string)).toBe(true)
      }
    }
  }
  expect(duplicates).toBeGreaterThan(0)
})

test('a smaller web keeps every kind of fact', () => {
  for (const domain of DOMAINS) {
    const kinds = new Set(selectFacts(domain.facts, 12).map((spec) => spec.kind))
    expect(kinds).toEqual(new Set(['figure', 'date', 'polarity']))
  }
})

import { readdir } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { sampleCorpusDir } from '#server/providers/search/sample-corpus.ts'
import { corpusNotice, SAMPLE_SUBJECTS } from '#server/research/search-origin.ts'

test("the sample's notice names every subject it has articles on, so a topic elsewhere knows why it found nothing", async () => {
  const folders = (await readdir(sampleCorpusDir, { withFileTypes: true })).filter((entry) => entry.isDirectory())
  expect(folders.length).toBeGreaterThan(0)
  for (const folder of folders) {
    expect(SAMPLE_SUBJECTS.toLowerCase(), folder.name).toContain(folder.name.replaceAll('-', ' ').toLowerCase())
  }
  const notice = corpusNotice({
    synthesis: 'extractive (no language model)',
    synthesisKind: 'extractive',
    search: 'the sample corpus',
    plan: 'fallback',
    corpus: 'sample',
    offlineFallback: true,
  })
  expect(notice).toContain(`invented articles on ${SAMPLE_SUBJECTS} (`)
})

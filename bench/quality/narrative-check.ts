// Checks topics of the realistic corpus and prints what each epoch does to its facts:
//   node bench/quality/narrative-check.ts [bench/quality/narrative/<topic> ...]
import path from 'node:path'
import { CorpusError, loadNarrativeTopic, loadNarrativeWeb, shapeProblems } from '#bench/quality/narrative.ts'

const dirs = process.argv.slice(2)
let failed = false
try {
  const topics = dirs.length > 0 ? dirs.map((dir) => loadNarrativeTopic(path.resolve(dir))) : loadNarrativeWeb().topics
  for (const topic of topics) {
    process.stdout.write(`${topic.slug} (${topic.split}): "${topic.topic}", ${topic.facts.length} facts\n`)
    topic.epochs.forEach((epoch, index) => {
      const words = epoch.pages.map((page) => page.text.split(/\s+/).length)
      const { plan } = epoch
      process.stdout.write(
        `  epoch ${index + 1}: ${epoch.pages.length} pages (${epoch.pages.filter((page) => page.passing).length} passing), ` +
          `${Math.min(...words)}-${Math.max(...words)} words; new ${plan.new.length}, updated ${plan.updated.length}, ` +
          `contradicted ${plan.contradicted.length}, restated ${plan.restated.length}\n`,
      )
    })
    for (const problem of shapeProblems(topic)) {
      failed = true
      process.stdout.write(`  PROBLEM: ${problem}\n`)
    }
  }
} catch (error) {
  if (!(error instanceof CorpusError)) throw error
  failed = true
  process.stdout.write(`PROBLEM: ${error.message}\n`)
}
process.exit(failed ? 1 : 0)

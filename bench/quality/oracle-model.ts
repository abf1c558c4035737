// The stand-in for a model that answers right (issue 40): its synthesis claims every fact sentence of
// the passages it is given, word for word, citing every source that holds it; its judge answers by
// the ground truth (the sloppy model's careful reading, never at random). What the engine then gets
// wrong, the engine lost: a guard that reversed a right verdict, a topic check that dropped a right
// claim, a passage that left the sentence out.
import { normalizeText } from '#bench/quality/registry.ts'
import {
  createSloppyModel,
  type Knowledge,
  type ModelTrace,
  type Sloppiness,
  type SloppyLog,
} from '#bench/quality/sloppy-model.ts'
import { type StubReply, type StubRequest, synthesisSources } from '#test/support/stub-openai.ts'

const NOTHING_SLOPPY: Sloppiness = {
  paraphrase: 0,
  wrongSource: 0,
  inventedQuote: 0,
  misstatedFigure: 0,
  judgeRandom: 0,
}

type Finding = { text: string; quote: string; sourceIds: number[]; version: string }

/** Every wording of every fact version that a source holds, once, with every source that holds it. */
export function oracleFindings(prompt: string, knowledge: Knowledge): Finding[] {
  const sources = synthesisSources(prompt).map((source) => ({ id: source.id, text: normalizeText(source.text) }))
  const findings: Finding[] = []
  for (const fact of knowledge.facts.values()) {
    fact.versions.forEach((version, index) => {
      for (const wording of version.wordings) {
        const key = normalizeText(wording).replace(/[.!?]+$/u, '')
        const holders = sources.filter((source) => source.text.includes(key)).map((source) => source.id)
        if (holders.length > 0)
          findings.push({ text: wording, quote: wording, sourceIds: holders, version: `${fact.key}@${index}` })
      }
    })
  }
  return findings
}

export function createOracleModel(options: {
  knowledge: () => Knowledge
  log: SloppyLog
  trace?: ModelTrace
}): (request: StubRequest) => StubReply {
  const { knowledge, log, trace } = options
  const careful = createSloppyModel({ seed: 0, knowledge, rates: NOTHING_SLOPPY, log, trace })
  return (request) => {
    if (request.kind !== 'synthesize') return careful(request)
    const topic = /^Topic: (.+)$/m.exec(request.text)?.[1] ?? 'the topic'
    const at = Date.now()
    const findings = oracleFindings(request.text, knowledge()).map(({ version, ...finding }) => {
      trace?.claims.set(version, [...(trace.claims.get(version) ?? []), { at, ...finding, sloppy: [] }])
      return finding
    })
    log.claims += findings.length
    return {
      content: { headline: `What is new on ${topic}`, findings, sections: null, implications: null, gaps: [] },
    }
  }
}

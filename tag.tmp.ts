import { english, nlpIts } from '#server/text/english.ts'
for (const s of process.argv.slice(2)) {
  const d = english().readDoc(s)
  const t = d.tokens()
  console.log((t.out() as string[]).map((w, i) => w + '/' + (t.out(nlpIts().pos) as string[])[i]).join(' '))
}

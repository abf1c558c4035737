import { classifyClaims, type KnownClaim } from '#server/claims/classify.ts'
import { type VerifiedClaim, verifyClaims } from '#server/claims/verify.ts'
import { polarity } from '#server/claims/subject.ts'
function known(id: string, text: string): KnownClaim {
  const [claim] = verifyClaims([{ text, quote: text, sourceIds: [1] }], [{ id: 1, text }]).claims as [VerifiedClaim]
  return { id, text, quote: text, statements: claim.statements, subject: claim.subject, polarity: claim.polarity }
}
function fresh(text: string): VerifiedClaim {
  return verifyClaims([{ text, quote: text, sourceIds: [1] }], [{ id: 1, text }]).claims[0] as VerifiedClaim
}
const [claimText, ...memTexts] = process.argv.slice(2)
const memory = memTexts.map((t, i) => known(String(i), t))
const c = fresh(claimText as string)
console.log('claim', JSON.stringify(c.statements), JSON.stringify(c.polarity), c.subject.join(' '))
for (const m of memory) console.log('mem', m.id, JSON.stringify(m.statements), JSON.stringify(m.polarity), m.subject.join(' '))
for (const verdict of (process.env.NOJUDGE ? [] : ["confirmed", "updated", "contradicted"]) as Array<"confirmed">) {
  const r = await classifyClaims([c], memory, async (items: any) => { console.log(' candidates', items.items[0]?.closest); return [{ index: 0, class: verdict, candidate: 0 }] })
  console.log(verdict, '->', r[0]?.class, r[0]?.match?.id, r[0]?.related?.id)
}
{ const r = await classifyClaims([c], memory); console.log('rules ->', r[0]?.class, r[0]?.match?.id, r[0]?.related?.id) }

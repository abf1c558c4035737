// What the Slack and GitHub tests read from the database: a run once it has ended, and how many
// runs, webhook receipts and deliveries exist (to show that a rejected request wrote nothing).
import type { Db } from '#db/database.ts'

export async function waitForRunEnd(db: Db, runId: string) {
  for (let i = 0; i < 400; i++) {
    const run = await db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow()
    if (run.status !== 'running') return run
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`run ${runId} did not end`)
}

export async function integrationCounts(db: Db) {
  const count = async (table: 'runs' | 'webhook_receipts' | 'deliveries') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  return { runs: await count('runs'), receipts: await count('webhook_receipts'), deliveries: await count('deliveries') }
}

// What a run's end owes the account's webhooks (the hook of server/runs/end.ts): run.completed
// or run.failed, and series.changed when a series run's delta has something new, updated or
// contradicted; one delivery row per endpoint subscribed to the type, plus one to the brief's own
// webhookUrl. A quiet run of a notify: 'changes' series (worthTelling false) and a cancelled run owe
// nothing. The payload is composed here, in the ending transaction, and sealed on the row (it names
// the topic): every attempt sends the same bytes under the same webhook-id.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import type { Deliveries } from '#server/notify/repository/deliveries.ts'
import { subscribedEndpointIds } from '#server/notify/repository/webhook-endpoints.ts'
import type { RunsToTell } from '#server/notify/runs-to-tell.ts'
import { changedAnything, type RunEnd, type RunEndHook } from '#server/runs/contract.ts'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '#server/vocabulary/notify.ts'
import type { RunStatus } from '#server/vocabulary/runs.ts'

/** Where a webhook event goes: one of the account's endpoints, or the run's brief's webhookUrl. */
export const WebhookTargetSchema = z.union([
  z.object({ endpointId: z.uuid(), type: z.enum(WEBHOOK_EVENT_TYPES) }),
  z.object({ brief: z.literal(true), type: z.enum(WEBHOOK_EVENT_TYPES) }),
])
export type WebhookTarget = z.infer<typeof WebhookTargetSchema>

/** The body every attempt sends (see docs/guides/monitoring.md, "Webhooks"). */
export type WebhookEvent = {
  type: WebhookEventType
  /** When the event happened (the run's end), ISO 8601. */
  timestamp: string
  data: {
    runId: string
    topic: string
    status: Extract<RunStatus, 'complete' | 'failed'>
    seriesId: string | null
    /** Counts of the run's delta against memory; absent for a failed run. */
    delta?: { baseline: boolean; new: number; updated: number; contradicted: number; confirmed: number }
    sources?: number
    /** Why the run failed: Sextant's own code and message, never report text. */
    error?: { code: string; message: string }
    links: { run: string; api: string }
  }
}

export type WebhookEventContext = { jobs: Jobs; runs: RunsToTell; deliveries: Deliveries; publicUrl: string }

export function deliverWebhooksWhenEnded(context: WebhookEventContext): RunEndHook<Db> {
  return async (trx, end) => {
    if (!end.worthTelling || end.outcome.status === 'cancelled') return
    const types = eventTypes(end)
    const brief = end.brief ?? (await context.runs.brief(trx, end.runId))?.brief
    if (!brief) return
    const timestamp = new Date().toISOString()
    for (const type of types) {
      const event = composeEvent(end, { type, topic: brief.topic, timestamp, publicUrl: context.publicUrl })
      // The end's own statement said which types any endpoint takes: most accounts have none.
      const endpoints = end.webhookEvents.includes(type) ? await subscribedEndpointIds(trx, end.accountId, type) : []
      const targets: WebhookTarget[] = endpoints.map((endpointId) => ({ endpointId, type }))
      if (brief.webhookUrl) targets.push({ brief: true, type })
      for (const target of targets) await queueEvent(trx, context, end.runId, target, event)
    }
  }
}

function eventTypes(end: RunEnd): WebhookEventType[] {
  const { outcome } = end
  if (outcome.status === 'failed') return ['run.failed']
  if (outcome.status !== 'complete') return []
  return end.seriesId && changedAnything(outcome.report) ? ['run.completed', 'series.changed'] : ['run.completed']
}

function composeEvent(
  end: RunEnd,
  input: { type: WebhookEventType; topic: string; timestamp: string; publicUrl: string },
): WebhookEvent {
  const { outcome } = end
  const data: WebhookEvent['data'] = {
    runId: end.runId,
    topic: input.topic,
    status: outcome.status === 'complete' ? 'complete' : 'failed',
    seriesId: end.seriesId,
    links: {
      run: `${input.publicUrl}/dashboard/runs/${end.runId}`,
      api: `${input.publicUrl}/api/briefs/${end.runId}`,
    },
  }
  if (outcome.status === 'complete') {
    const { delta } = outcome.report
    data.delta = {
      baseline: delta.baseline,
      new: delta.newFindings.length,
      updated: delta.updated.length,
      contradicted: delta.contradicted.length,
      confirmed: delta.confirmed,
    }
    data.sources = outcome.report.sources.length
  } else if (outcome.status === 'failed') {
    data.error = { code: outcome.error.code, message: outcome.error.message }
  }
  return { type: input.type, timestamp: input.timestamp, data }
}

async function queueEvent(
  trx: Db,
  context: WebhookEventContext,
  runId: string,
  target: WebhookTarget,
  event: WebhookEvent,
) {
  // The event's body waits sealed in the row's notice: every attempt sends the same bytes.
  const inserted = await context.deliveries.insertEvent(trx, {
    id: randomUUID(),
    run_id: runId,
    channel: 'webhook',
    kind: 'event',
    target: JSON.stringify(target),
    notice: JSON.stringify(event),
  })
  if (inserted) await context.jobs.send(DELIVER, { deliveryId: inserted }, { trx })
}

// What Sextant owes someone, sent by the `deliver` job whatever the channel: a reply in a Slack
// thread or on a pull request, a signed webhook event, an email. And the sweep of deliveries whose
// job gave up.
import { type DeliverDeps, deliver } from '#server/notify/deliver.ts'
import { sweepDeliveries } from '#server/notify/delivery-sweep.ts'

export function createDeliveryService(deps: DeliverDeps) {
  return {
    /** The delivery job: posts a message, retrying within its limits. */
    deliver: (deliveryId: string) => deliver(deps, deliveryId),
    /** The sweep cron: pending deliveries whose job gave up are queued again, or failed at the limit. */
    sweep: () => sweepDeliveries(deps),
  }
}

export type DeliveryService = ReturnType<typeof createDeliveryService>

// The notify module's tables with sealed columns (deliveries' notices, Slack bot tokens, feeds'
// titles, webhook signing secrets), their statements built once from the memory key ring (decision
// 064). The composition root builds them and hands them to the module's service, so the ring is
// named where columns are sealed and opened, not in the service.
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { createDeliveries } from '#server/notify/repository/deliveries.ts'
import { createFeeds } from '#server/notify/repository/feeds.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import { createWebhookSecrets } from '#server/notify/repository/webhook-endpoints.ts'

export function createNotifyTables(ring: KeyRing) {
  return {
    deliveries: createDeliveries(ring),
    workspaces: createSlackWorkspaces(() => ring),
    feeds: createFeeds(ring),
    secrets: createWebhookSecrets(ring),
  }
}

export type NotifyTables = ReturnType<typeof createNotifyTables>

// Outbound webhooks, as the API and the pages ask for them: an account's endpoints (register, list,
// delete, rotate their secret), its signing secret for a brief's webhookUrl, and why a URL may not
// receive webhooks (admission asks it of a brief's webhookUrl). Delivery is the `deliver` job's
// (server/notify/deliver.ts -> webhooks/send.ts).

import {
  accountSigningSecret,
  type EndpointDeps,
  listEndpoints,
  type NewEndpoint,
  registerEndpoint,
  removeEndpoint,
  rotateAccountSecret,
  rotateEndpointSecret,
} from '#server/notify/webhooks/endpoints.ts'
import { vetWebhookUrl } from '#server/notify/webhooks/target.ts'

export type WebhookServiceDeps = EndpointDeps

export function createWebhookService(deps: WebhookServiceDeps) {
  const { db } = deps
  return {
    endpoints: {
      /** Vets the URL (public addresses only, https) and answers the new endpoint with its secret, shown once. */
      create: (accountId: string, input: NewEndpoint) => registerEndpoint(deps, accountId, input),
      list: (accountId: string) => listEndpoints(db, accountId),
      remove: (accountId: string, id: string) => removeEndpoint(db, accountId, id),
      rotate: (accountId: string, id: string) => rotateEndpointSecret(deps, accountId, id),
    },
    /** The account's signing secret for briefs' webhookUrl (made on first need). */
    accountSecret: (accountId: string) => accountSigningSecret(deps, accountId),
    rotateAccountSecret: (accountId: string) => rotateAccountSecret(deps, accountId),
    /** Why the URL may not receive webhooks (a phrase after "webhookUrl"), or undefined when it may. */
    async urlProblem(url: string): Promise<string | undefined> {
      const vetted = await vetWebhookUrl(url, deps.rules)
      return vetted.ok ? undefined : vetted.reason
    },
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>

// Where a webhook may go: the page reader's rules (server/providers/reader/safe-fetch.ts). An endpoint
// URL, or a brief's webhookUrl, must resolve only to public addresses, unless its host:port is in
// WEBHOOK_ALLOW_HOSTS (a test's receiver); https unless WEBHOOK_ALLOW_HTTP. Checked when it is given
// and again before every attempt, as DNS may have changed in between.
import type { LookupAddress } from 'node:dns'
import net from 'node:net'
import { AddressRefusal, Refusal, type Resolver, vet } from '#server/providers/reader/safe-fetch.ts'

export type WebhookTargetRules = {
  allowHttp: boolean
  allowHosts: ReadonlySet<string>
  resolve: Resolver
}

export type VettedTarget = { ok: true; url: URL; addresses: LookupAddress[] } | { ok: false; reason: string }

/** Range names of ipaddr.js, as a person reads them. */
const RANGES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address (where cloud metadata lives)',
  uniqueLocal: 'a private (unique local) IPv6 address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'the unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
}

/** The URL as a webhook target, or why it may not be one (a phrase that follows "webhookUrl ..."). */
export function parseWebhookUrl(text: string, rules: Pick<WebhookTargetRules, 'allowHttp'>): URL | string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'is not a URL'
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
    return rules.allowHttp ? 'must be an http or https URL' : 'must be an https URL'
  }
  if (url.username || url.password) return 'must not carry a user name or password'
  return url
}

/** Parses and resolves the URL, refusing any address that is not public (unless admitted). */
export async function vetWebhookUrl(text: string, rules: WebhookTargetRules): Promise<VettedTarget> {
  const url = parseWebhookUrl(text, rules)
  if (typeof url === 'string') return { ok: false, reason: url }
  try {
    const addresses = await vet(url, rules)
    return { ok: true, url, addresses }
  } catch (error) {
    if (error instanceof AddressRefusal) return { ok: false, reason: privateReason(url, error) }
    if (error instanceof Refusal) return { ok: false, reason: error.message }
    throw error
  }
}

function privateReason(url: URL, refusal: AddressRefusal): string {
  const [form, range] = refusal.range.includes(' ') ? refusal.range.split(' ') : [undefined, refusal.range]
  const what = RANGES[range ?? ''] ?? `a ${range} address`
  const carried = form ? ` (carried in an IPv6 ${form} address)` : ''
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const where = net.isIP(host) ? `points at ${refusal.address}` : `resolves to ${refusal.address}`
  return `${where}, ${what}${carried}: webhooks go to public addresses only`
}

// Finding a topic without storing it: rows carry a keyed HMAC-SHA256 of the account and the topic's
// normalized key, so "same topic in this account" is an index hit and the database shows no topic.
// The HMAC key is one random secret per installation, kept sealed with the key ring (at boot,
// server/crypto/installation-key.ts), so it survives rotation and the hashes never change.
import { createHmac } from 'node:crypto'
import { topicKey } from '#server/text/topic-key.ts'

export type TopicIndex = {
  /** The value stored in `topic_hash` columns for this account's topic (any spelling of it). */
  hash(accountId: string, topic: string): Buffer
}

export function createTopicIndex(key: Buffer): TopicIndex {
  return {
    hash(accountId, topic) {
      // The account is part of the input: the same topic in two accounts gives unrelated values.
      return createHmac('sha256', key)
        .update(`${accountId}\n${topicKey(topic)}`)
        .digest()
    },
  }
}

/** Loads an installation's secret: the setting it is kept in, and how an error names it. */
export type LoadInstallationKey = (setting: string, description: string) => Promise<Buffer>

/** The installation's topic index, its key loaded (made on first boot) by `loadKey`. */
export async function loadTopicIndex(loadKey: LoadInstallationKey): Promise<TopicIndex> {
  return createTopicIndex(await loadKey('topic_index_key', 'topic index key'))
}

// Finding a topic without storing it: rows carry a keyed HMAC-SHA256 of the account and the topic's
// normalized key, so "same topic in this account" is an index hit and the database shows no topic.
// The HMAC key is one random secret per installation, kept in `settings` sealed with the key ring
// (the first key), so it survives rotation: each boot re-seals it with the ring's current first key,
// and the hashes themselves never change.
import { createHmac, randomBytes } from 'node:crypto'
import type { Db } from '#db/database.ts'
import { type KeyRing, KeyRingError, open, type Sealed, seal, UnreadableError } from '#server/crypto/key-ring.ts'
import { ensureSetting, updateSetting } from '#server/repositories/settings.ts'
import { topicKey } from '#server/text/topic-key.ts'

export type TopicIndex = {
  /** The value stored in `topic_hash` columns for this account's topic (any spelling of it). */
  hash(accountId: string, topic: string): Buffer
}

const SETTING = 'topic_index_key'
const ASSOCIATED_DATA = 'settings:topic_index_key'

type StoredKey = { keyId: string; sealed: string }

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

function toSealed(stored: StoredKey): Sealed {
  return { keyId: stored.keyId, ciphertext: Buffer.from(stored.sealed, 'base64') }
}

function toStored(sealed: Sealed): StoredKey {
  return { keyId: sealed.keyId, sealed: sealed.ciphertext.toString('base64') }
}

/**
 * The installation's topic index: its key made on first boot, opened on every later one, and
 * re-sealed with the ring's first key when a rotation put another key first.
 */
export async function loadTopicIndex(db: Db, ring: KeyRing): Promise<TopicIndex> {
  // Two processes booting at once both make one; the first stored wins and both read it back.
  const stored = await ensureSetting(db, SETTING, toStored(seal(ring, randomBytes(32), ASSOCIATED_DATA)))
  let key: Buffer
  try {
    key = open(ring, toSealed(stored), ASSOCIATED_DATA)
  } catch (error) {
    if (!(error instanceof UnreadableError)) throw error
    throw new KeyRingError(
      `the topic index key is sealed with key "${stored.keyId}", which MEMORY_ENCRYPTION_KEYS cannot open: ` +
        'put that key back in the ring (a rotation adds the new key first and keeps the old ones after it)',
    )
  }
  if (stored.keyId !== ring.primary) {
    await updateSetting(db, SETTING, toStored(seal(ring, key, ASSOCIATED_DATA)))
  }
  return createTopicIndex(key)
}

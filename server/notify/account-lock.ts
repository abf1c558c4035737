// What notify asks of the accounts module (a port, decision 063): the account's row held until the
// caller's transaction ends, so a cap (webhook endpoints, email addresses, feeds) is counted and
// kept in one step however many requests arrive at once. server/services.ts hands it the accounts
// repository's lock.
import type { Db } from '#db/database.ts'

export type LockAccount = (trx: Db, accountId: string) => Promise<void>

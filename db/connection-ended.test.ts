import pg from 'pg'
import { expect, test } from 'vitest'
import { isConnectionEndedByServer } from '#db/connection-ended.ts'

function pgError(code: string, severity: string) {
  return Object.assign(new pg.DatabaseError('terminating connection', 100, 'error'), { code, severity })
}

test('only Postgres ending a connection counts, not a failed statement or an error of ours', () => {
  expect(isConnectionEndedByServer(pgError('57P01', 'FATAL'))).toBe(true) // admin shutdown, terminate
  expect(isConnectionEndedByServer(pgError('57P02', 'FATAL'))).toBe(true) // crash shutdown
  expect(isConnectionEndedByServer(pgError('57P03', 'FATAL'))).toBe(true) // cannot connect now
  expect(isConnectionEndedByServer(pgError('57014', 'ERROR'))).toBe(false) // a cancelled statement
  expect(isConnectionEndedByServer(pgError('23505', 'ERROR'))).toBe(false) // a unique violation
  expect(isConnectionEndedByServer(pgError('57P01', 'ERROR'))).toBe(false)
  expect(isConnectionEndedByServer(new TypeError('x is undefined'))).toBe(false)
  expect(isConnectionEndedByServer({ code: '57P01', severity: 'FATAL' })).toBe(false)
})

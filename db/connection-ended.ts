// Whether an error is Postgres ending a connection (a restart, a crash, an administrator's
// terminate): SQLSTATE class 57, "operator intervention". Such an error can reach the process as
// an 'error' event of a pg client that nobody listens to at that moment (a library's client during
// its own shutdown), which Node would turn into an uncaught exception and a crash; the pool that
// owns the client has already dropped it, so nothing of ours is left in a bad state.
const CONNECTION_ENDED = new Set(['57P01', '57P02', '57P03'])

export function isConnectionEndedByServer(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const { code, severity } = error as Error & { code?: unknown; severity?: unknown }
  return typeof code === 'string' && CONNECTION_ENDED.has(code) && severity === 'FATAL'
}

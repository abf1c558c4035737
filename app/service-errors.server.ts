// The services throw their errors from the server's copy of server/ modules, while the route modules
// are bundled by Vite with a copy of their own (see app/context.ts): `instanceof` against the
// bundle's class is always false for them. The name each error class sets is the same in both copies.

/** Whether `error` is the service's error of that name (e.g. `isServiceError<KeyLimitError>(error, 'KeyLimitError')`). */
export function isServiceError<T extends Error>(error: unknown, name: string): error is T {
  return error instanceof Error && error.name === name
}

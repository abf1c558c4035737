// The words of accounts and their keys, written once for their tables and the code that reads them.

/**
 * standard: signed up; local: the one a local install makes for its owner (the embedded database, or
 * local development auth); demo: the demo key's, and each demo visitor's; trial: each browser's on
 * the no-login trial page.
 */
export const ACCOUNT_KINDS = ['standard', 'local', 'demo', 'trial'] as const
export type AccountKind = (typeof ACCOUNT_KINDS)[number]

export const API_KEY_KINDS = ['standard', 'demo'] as const satisfies readonly AccountKind[]
export type ApiKeyKind = (typeof API_KEY_KINDS)[number]

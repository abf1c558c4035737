// The embedded Postgres of a real `node server/main.ts` killed with kill -9: /healthz says the
// database is down instead of "ok", the launcher starts the cluster again on the same data and port,
// and the app comes back by itself (pool, pg-boss, the event hub's LISTEN) to finish a run. Killed
// again and stopped at once, the app stops cleanly and leaves nothing running.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { processesMentioning, spawnSextant } from '#test/support/process.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { waitUntil } from '#test/support/sse-client.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-pgcrash-'))
fs.chmodSync(dataDir, 0o755) // the postgres OS user must reach it when we run as root
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

async function health(url: string) {
  const response = await fetch(`${url}/healthz`)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

test('kill -9 of the embedded Postgres: /healthz 503, an automatic restart, then runs complete again', {
  timeout: 120_000,
}, async () => {
  const app = spawnSextant({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: '0' })
  try {
    const first = await app.waitForLog((line) => line.msg === 'embedded Postgres is ready')
    const url = (await app.waitForLog((line) => typeof line.url === 'string')).url as string
    const printed = await app.waitForLog((line) => line.level === 'text' && /API key: +sx_/.test(line.msg))
    const apiKey = /API key: +(sx_\S+)/.exec(printed.msg)?.[1]
    const auth = { Authorization: `Bearer ${apiKey}` }
    const fetcher = (route: string, init?: RequestInit) => fetch(`${url}${route}`, init)
    expect((await health(url)).status).toBe(200)

    process.kill(first.postgresPid as number, 'SIGKILL')
    await waitUntil(async () => (await health(url)).status === 503)
    expect((await health(url)).body).toMatchObject({ status: 'down', reason: 'the database is not answering' })

    const restarted = await app.waitForLog((line) => line.msg === 'embedded Postgres restarted', 60_000)
    expect(restarted.postgresPid).not.toBe(first.postgresPid)
    await waitUntil(async () => (await health(url)).status === 200)
    await waitUntil(async () => (await fetcher('/readyz')).status === 200)
    await app.waitForLog((line) => line.msg === 'run events listen connection restored', 30_000)

    const started = await postBrief(fetcher, auth, { topic: 'sodium-ion batteries', depth: 'quick' })
    expect(started.response.status).toBe(202)
    expect((await waitForRun(fetcher, auth, started.body.runId, 60_000)).status).toBe('complete')

    // Killed again and stopped while it restarts: the stop ends the retrying and leaves nothing running.
    process.kill(restarted.postgresPid as number, 'SIGKILL')
    await app.waitForLog((line) => line.msg === 'embedded Postgres exited unexpectedly; restarting it')
    app.child.kill('SIGTERM')
    // A failed stop says why: the last log lines (a fatal error names its cause) and stderr.
    const code = await app.exited
    expect(code, `${JSON.stringify(app.lines.slice(-20))}\n${app.stderr()}`).toBe(0)
    expect(processesMentioning(dataDir)).toEqual([])
  } finally {
    if (app.child.exitCode === null) app.child.kill('SIGKILL')
  }
})

// GET /api/briefs/{id} of a completed run (its view kept in memory after the first read) under load from a
// second process: autocannon's CLI, so the load generator does not share the harness's event loop.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { ms } from '#bench/measure.ts'
import { measureRun, type Scenario } from '#bench/scenario.ts'
import { projectRoot } from '#server/http/app-build.ts'

type AutocannonResult = {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
}

/** Issue 21's target for reading a completed run under load. */
const P99_TARGET_MS = 20

export const getLoadScenario: Scenario = {
  name: 'GET under load',
  async run(context) {
    const runId =
      context.completedRunId ?? (await measureRun(context, { topic: context.topic('read'), depth: 'quick' })).runId
    const { sizes } = context
    const result = await autocannon([
      '--json',
      '--connections',
      String(sizes.getLoadConnections),
      '--duration',
      String(sizes.getLoadSeconds),
      '--headers',
      `Authorization=Bearer ${context.client.apiKey}`,
      `${context.client.url}/api/briefs/${runId}`,
    ])
    const failures: string[] = []
    const bad = result.non2xx + result.errors + result.timeouts
    if (bad > 0) {
      failures.push(
        `${bad} of ${result.requests.total} requests failed (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
      )
    }
    const scenario = 'GET /api/briefs/{id}'
    return {
      rows: [
        {
          scenario,
          metric: `requests/s (${sizes.getLoadConnections} connections, ${sizes.getLoadSeconds} s)`,
          value: result.requests.average.toFixed(0),
        },
        {
          scenario,
          metric: 'latency p50 / p99',
          value: `${ms(result.latency.p50)} / ${ms(result.latency.p99)}`,
          target: `p99 < ${P99_TARGET_MS} ms`,
          met: result.latency.p99 < P99_TARGET_MS,
        },
      ],
      detail: result,
      failures,
    }
  },
}

function autocannon(args: string[]): Promise<AutocannonResult> {
  const bin = path.join(projectRoot, 'node_modules', 'autocannon', 'autocannon.js')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${stderr}`))
      try {
        resolve(JSON.parse(stdout) as AutocannonResult)
      } catch {
        reject(new Error(`autocannon printed no JSON result: ${stdout}${stderr}`))
      }
    })
  })
}

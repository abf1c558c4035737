// The floor under a run's CPU (issue 21): what this stack's fixed costs alone take, with no engine
// work at all. It measures, on this machine, the CPU of the cheapest statements and provider calls
// through the clients the server uses, and multiplies them by what a quick run of the benchmark
// makes. The server's own figure can only be above this.
//
//   npx node bench/floor.ts [--reads 14] [--writes 13] [--model-calls 4] [--searches 3] [--requests 2]
//
// The counts are a quick run's on 2026-11-27 (`npm run bench -- --statements`): 27 statements sent,
// of which 13 commit on their own (11 writes outside a transaction and the two transactions'
// commits) and 14 do not (5 reads, 2 begins, 7 writes inside a transaction), counted here as the
// cheapest read; 3 chat completions and 1 embeddings call; 3 searches; the POST and the event stream.
//
// Statements: one embedded Postgres as `npm start` starts it (Unix socket, named statements), a pg
// pool of 10, 20 statements in flight; the client's CPU is this process's, Postgres's its processes'
// (from /proc). Provider calls: the OpenAI and Exa SDKs against the benchmark's stubs with no latency,
// in their own process, 20 calls in flight. Requests: a small HTTP request and answer through
// node:http, the least a POST or a stream costs before Express and the rest; the client is a process
// of its own, so only the server side is counted.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import Exa from 'exa-js'
import OpenAI from 'openai'
import type pg from 'pg'
import { postgresCpuMs } from '#bench/server-process.ts'
import { startBenchStubs } from '#bench/stubs.ts'
import { createPool } from '#db/database.ts'
import { startEmbeddedPostgres } from '#db/embedded.ts'
import { createLogger } from '#server/logger.ts'

const { values: flags } = parseArgs({
  options: {
    reads: { type: 'string', default: '14' },
    writes: { type: 'string', default: '13' },
    'model-calls': { type: 'string', default: '4' },
    searches: { type: 'string', default: '3' },
    requests: { type: 'string', default: '2' },
  },
})
const counts = {
  reads: Number(flags.reads),
  writes: Number(flags.writes),
  modelCalls: Number(flags['model-calls']),
  searches: Number(flags.searches),
  requests: Number(flags.requests),
}

const IN_FLIGHT = 20
// Errors only: stopping Postgres ends the pool's last connections, which the pool reports as lost.
const log = createLogger({ level: 'error' })

/** CPU (ms) of this process over `work`, and of Postgres when a data directory is given. */
async function cpuOf(work: () => Promise<void>, dataDir?: string): Promise<{ self: number; postgres: number }> {
  const before = process.cpuUsage()
  const pgBefore = dataDir ? postgresCpuMs(dataDir) : 0
  await work()
  const used = process.cpuUsage(before)
  return { self: (used.user + used.system) / 1000, postgres: dataDir ? postgresCpuMs(dataDir) - pgBefore : 0 }
}

/** Runs `count` calls, `IN_FLIGHT` at a time. */
async function inFlight(count: number, call: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) await call(next++)
    }),
  )
}

async function statements(): Promise<{
  read: { self: number; postgres: number }
  write: { self: number; postgres: number }
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-floor-'))
  fs.chmodSync(dataDir, 0o755) // as root, the postgres OS user must reach the cluster inside it
  const postgres = await startEmbeddedPostgres({ dataDir, preferredPort: 0, log })
  const pool: pg.Pool = createPool(postgres.url, 10, log, { prepare: true })
  try {
    await pool.query('create table if not exists floor_writes (id bigserial primary key, n int not null)')
    const read = (i: number) => pool.query({ name: 'floor_read', text: 'select $1::int as n', values: [i] })
    const write = (i: number) =>
      pool.query({ name: 'floor_write', text: 'insert into floor_writes (n) values ($1) returning id', values: [i] })
    await inFlight(2000, read) // warm: connections, named statements, the JIT
    await inFlight(2000, write)
    const n = 10_000
    const readCpu = await cpuOf(() => inFlight(n, read), dataDir)
    const writeCpu = await cpuOf(() => inFlight(n, write), dataDir)
    const per = (cpu: { self: number; postgres: number }) => ({ self: cpu.self / n, postgres: cpu.postgres / n })
    return { read: per(readCpu), write: per(writeCpu) }
  } finally {
    await pool.end()
    await postgres.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function providerCalls(): Promise<{ model: number; search: number }> {
  const stubs = await startBenchStubs({ modelMs: 0, searchMs: 0 })
  try {
    const openai = new OpenAI({ apiKey: stubs.env.OPENAI_API_KEY, baseURL: stubs.env.OPENAI_BASE_URL, maxRetries: 0 })
    const exa = new Exa(stubs.env.EXA_API_KEY, stubs.env.EXA_BASE_URL)
    // A small plan, the one kind of completion the stubs answer whatever it asks.
    const model = () =>
      openai.chat.completions.create({
        model: 'gpt-4.1-mini',
        messages: [{ role: 'user', content: 'Topic: floor\nReturn at most 3 queries.' }],
        response_format: { type: 'json_schema', json_schema: { name: 'plan', schema: { type: 'object' } } },
      })
    const search = (i: number) =>
      exa.search(`floor ${i % 50}`, { numResults: 1, contents: { text: { maxCharacters: 200 } } })
    await inFlight(500, model)
    await inFlight(500, search)
    const n = 3000
    const modelCpu = await cpuOf(() => inFlight(n, model))
    const searchCpu = await cpuOf(() => inFlight(n, search))
    return { model: modelCpu.self / n, search: searchCpu.self / n }
  } finally {
    await stubs.close()
  }
}

/** The server side of a small HTTP request and its answer; the client runs in a process of its own. */
async function requests(): Promise<number> {
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end('{"ok":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const n = 10_000
  // The client in a child process, so its CPU is not this one's.
  const client = `
    const agent = new (require('node:http').Agent)({ keepAlive: true, maxSockets: ${IN_FLIGHT} })
    const one = () => new Promise((resolve, reject) => {
      const req = require('node:http').request({ port: ${port}, host: '127.0.0.1', method: 'POST', path: '/', agent,
        headers: { 'content-type': 'application/json' } }, (res) => { res.resume(); res.on('end', resolve) })
      req.on('error', reject); req.end('{"topic":"floor"}')
    })
    const run = async (count) => { let next = 0; await Promise.all(Array.from({ length: ${IN_FLIGHT} }, async () => { while (next < count) { next++; await one() } })) }
    run(2000).then(() => { process.send('warm'); process.once('message', () => run(${n}).then(() => process.exit(0))) })
  `
  const child = spawn(process.execPath, ['-e', client], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  await new Promise((resolve) => child.once('message', resolve))
  const cpu = await cpuOf(async () => {
    child.send('go')
    await new Promise((resolve) => child.once('exit', resolve))
  })
  server.close()
  return cpu.self / n
}

const round = (value: number) => (value >= 1 ? value.toFixed(2) : value.toFixed(3))
const db = await statements()
const calls = await providerCalls()
const request = await requests()

const rows: [string, number, number][] = [
  ['statement, read: client', db.read.self, counts.reads],
  ['statement, read: Postgres', db.read.postgres, counts.reads],
  ['statement, committed write: client', db.write.self, counts.writes],
  ['statement, committed write: Postgres', db.write.postgres, counts.writes],
  ['model call (OpenAI SDK)', calls.model, counts.modelCalls],
  ['search call (Exa SDK)', calls.search, counts.searches],
  ['HTTP request, server side (node:http)', request, counts.requests],
]
console.log(`The floor of a quick run's CPU on this machine (${os.availableParallelism()} CPUs)`)
console.log(`${'what'.padEnd(42)} ${'ms each'.padStart(8)} ${'x per run'.padStart(9)} ${'ms per run'.padStart(10)}`)
let total = 0
for (const [what, each, times] of rows) {
  total += each * times
  console.log(
    `${what.padEnd(42)} ${round(each).padStart(8)} ${String(times).padStart(9)} ${round(each * times).padStart(10)}`,
  )
}
console.log(`${'floor: the stack alone, no engine work'.padEnd(61)} ${round(total).padStart(10)}`)

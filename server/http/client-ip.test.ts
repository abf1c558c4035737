import type { Request } from 'express'
import { expect, test } from 'vitest'
import { clientIp, isLoopback, isLoopbackHost } from '#server/http/client-ip.ts'

function request(remoteAddress: string, headers: Record<string, string> = {}): Request {
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]))
  return { socket: { remoteAddress }, get: (name: string) => lower[name.toLowerCase()] } as unknown as Request
}

test('without trusted proxies the socket address is the client, whatever the headers say', () => {
  const req = request('::ffff:203.0.113.9', { 'X-Forwarded-For': '1.2.3.4', 'Fly-Client-IP': '5.6.7.8' })
  expect(clientIp(req, 0)).toBe('203.0.113.9')
})

test('with trusted proxies, Fly-Client-IP wins, else the entry the nearest trusted proxy appended', () => {
  expect(clientIp(request('10.0.0.1', { 'Fly-Client-IP': '198.51.100.7' }), 1)).toBe('198.51.100.7')
  const chain = request('10.0.0.1', { 'X-Forwarded-For': '6.6.6.6, 198.51.100.7' }) // 6.6.6.6 is client-supplied
  expect(clientIp(chain, 1)).toBe('198.51.100.7')
  expect(clientIp(chain, 2)).toBe('6.6.6.6')
  expect(clientIp(request('10.0.0.1', { 'X-Forwarded-For': 'garbage' }), 1)).toBe('10.0.0.1')
})

test('loopback covers 127/8 and ::1, also IPv4-mapped', () => {
  expect(isLoopback('127.0.0.1')).toBe(true)
  expect(isLoopback('::ffff:127.0.0.2')).toBe(true)
  expect(isLoopback('::1')).toBe(true)
  expect(isLoopback('10.0.0.1')).toBe(false)
  expect(isLoopback(undefined)).toBe(false)
})

test('a loopback Host is one of the loopback names, with or without a port; anything else is not', () => {
  for (const host of ['localhost', 'localhost:3000', '127.0.0.1:5173', '[::1]:3000', 'LOCALHOST']) {
    expect(isLoopbackHost(host), host).toBe(true)
  }
  for (const host of [
    undefined,
    '',
    'attacker.test',
    'attacker.test:3000',
    'localhost.attacker.test',
    '127.0.0.1.nip.io',
    'localhost@attacker.test',
    'localhost/x',
    '10.0.0.1',
  ]) {
    expect(isLoopbackHost(host), String(host)).toBe(false)
  }
})

// V8's settings for the server process, set before the rest of its code is compiled: server/main.ts
// imports this module first. (V8 flags may not be given in NODE_OPTIONS.)
import { setFlagsFromString } from 'node:v8'

// Every function is compiled to Sparkplug's baseline machine code when it is first called, instead
// of being interpreted until it has run often enough. A run's engine code is called a few times a
// run, so on a server that does not run all day it is cold at every run, and interpreted, a step's
// own work (choosing passages, checking claims) is slower. docs/decisions/030 has the figures.
setFlagsFromString('--always-sparkplug')

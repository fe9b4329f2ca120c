#!/usr/bin/env node
// The `synth` command. The sources are TypeScript run as they are: Node 20 needs tsx's loader for that
// (Node 22.18+ and Deno could strip types themselves, but one path for every Node keeps behaviour identical).
import { register } from "tsx/esm/api"

register()
await import("../services/standalone/src/cli.ts")

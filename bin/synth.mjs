#!/usr/bin/env node
// The `synth` command. The sources are TypeScript, run as they are by the Node this project pins (package.json's
// engines; npm scripts put it first on PATH), which strips the types itself: no transpiler at run time.
if (!process.features.typescript) {
  console.error(
    `synth: Node ${process.version} cannot run TypeScript; this project runs on the Node package.json pins ` +
      "(`npm start`, or node_modules/.bin/node bin/synth.mjs after `npm install`)"
  )
  process.exit(1)
}
await import("../services/standalone/src/cli.ts")

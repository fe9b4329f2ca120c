// Trains the local AI layer of the enhanced scan and writes its artifact:
//   node libs/pii/scripts/train-classifier.ts
// Deterministic: fixed corpus seeds (disjoint from the benchmark's, test/bench/pii.bench.ts) and a seeded training
// order give the same bytes on every run; the SHA-256 printed at the end says so.
import { createHash } from "node:crypto"
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { artifactOf, classifierClasses, columnFeatures, predictProbabilities, trainSoftmax } from "../src/ai/index.ts"
import { generateCorpus } from "../src/corpus/index.ts"

const version = "local-classifier-v2"
const trainingSeeds = [101, 102, 103]
const heldOutSeed = 199
const tablesPerSeed = 500
const rowsPerTable = 120
const epochs = 25

const examplesOf = (seed: number, tables: number) =>
  generateCorpus({ seed, tables, rowsPerTable }).flatMap((table) =>
    table.input.columns.map((column, index) => ({
      features: columnFeatures(column),
      label: classifierClasses.indexOf(table.labels[index] ?? null)
    }))
  )

const started = performance.now()
const training = trainingSeeds.flatMap((seed) => examplesOf(seed, tablesPerSeed))
const heldOut = examplesOf(heldOutSeed, 200)
const prepared = performance.now()
const model = trainSoftmax(training, classifierClasses.length, { epochs, batchSize: 64, learningRate: 0.01, l2: 1e-4, seed: 7 })
const trained = performance.now()

const argmax = (values: Float64Array) => values.reduce((best, value, index) => (value > values[best]! ? index : best), 0)
const correct = heldOut.filter((example) => argmax(predictProbabilities(model, example.features)) === example.label).length
const heldOutAccuracy = Math.round((correct / heldOut.length) * 10_000) / 10_000

const artifact = artifactOf(model, version, {
  corpusSeeds: trainingSeeds,
  tables: trainingSeeds.length * tablesPerSeed,
  rowsPerTable,
  epochs,
  examples: training.length,
  heldOutAccuracy
})
const text = `${JSON.stringify(artifact)}\n`
const target = fileURLToPath(new URL("../src/ai/model/local-classifier.v2.json", import.meta.url))
writeFileSync(target, text)
console.log(`features ${((prepared - started) / 1000).toFixed(1)} s, training ${((trained - prepared) / 1000).toFixed(1)} s`)
console.log(`${training.length} training columns, ${heldOut.length} held out: accuracy ${heldOutAccuracy}`)
console.log(`${target}: ${text.length} bytes, sha256 ${createHash("sha256").update(text).digest("hex")}`)

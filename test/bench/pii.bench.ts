// Sensitive-data scanning: per-type precision and recall on a labelled corpus generated with @faker-js/faker in nine
// locales (seed disjoint from the local classifier's training seeds), for the basic scan and for the enhanced scan
// with the local AI layer; then scan times: diamonds (53,940 rows) and a generated 1,000,000-row table against a
// 10,000-row one, through the privacy service's path (read the Arrow table, sample PII_SAMPLE_ROWS rows, scan).
//
// Knobs: BENCH_PII_TABLES (600), BENCH_PII_ROWS (150 rows per corpus table), BENCH_ROUNDS (3), BENCH_PII_SCALE
// (1000000: rows of the large table; 0 skips the timing part). Times are medians of BENCH_ROUNDS; reading the
// table (Arrow IPC bytes already in memory) is timed apart from sampling and scanning.
import { classifyColumns, generateCorpus, localClassifier, mergeAiVerdicts, scanColumns, scoreCorpus } from "@synth/pii/testing"
import { sampleScanInput } from "@synth/pii"
import { ingestTable, readTable } from "@synth/tabular"
import { Effect, Stream } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { repoRoot } from "../support/server.ts"

const tables = Number(process.env.BENCH_PII_TABLES ?? 600)
const rowsPerTable = Number(process.env.BENCH_PII_ROWS ?? 150)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const scale = Number(process.env.BENCH_PII_SCALE ?? 1_000_000)
const benchmarkSeed = 424_242

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

/** How a type's values are validated: what its target is (≥ 0.95 for checksum and strict types). */
const strengthOf: Record<string, string> = {
  credit_card_number: "checksum", iban: "checksum", nhs_number: "checksum", npi_number: "checksum",
  canadian_social_insurance_number: "checksum", bank_routing_number: "checksum", national_id_number: "checksum / loose",
  email_address: "strict", social_security_number: "strict / loose", uk_national_insurance_number: "strict",
  crypto_wallet_address: "strict", mac_address: "strict", ip_address: "strict", url: "strict", uk_postcode: "strict",
  phone_number: "strict / loose", icd10_code: "strict / loose", medical_record_number: "strict / loose",
  geo_coordinates: "strict / pair", person_name: "words / learned", city: "words / loose", street_address: "learned / loose", username: "loose",
  passport_number: "loose", drivers_license_number: "loose", bank_account_number: "loose", date_of_birth: "loose",
  us_zip_code: "loose"
}

console.error(`corpus: ${tables} tables x ${rowsPerTable} rows, seed ${benchmarkSeed}; local classifier ${localClassifier.version}`)
const corpus = generateCorpus({ seed: benchmarkSeed, tables, rowsPerTable })
const basicTimes: Array<number> = []
const enhancedTimes: Array<number> = []
const basic = corpus.map((table) => {
  const started = performance.now()
  const scanned = scanColumns(table.input)
  basicTimes.push(performance.now() - started)
  return scanned
})
const enhanced = corpus.map((table, index) => {
  const started = performance.now()
  const merged = mergeAiVerdicts(basic[index]!, classifyColumns(table.input), table.input)
  enhancedTimes.push(performance.now() - started + basicTimes[index]!)
  return merged
})
const basicScore = scoreCorpus(corpus, basic)
const enhancedScore = scoreCorpus(corpus, enhanced)

const format = (value: number) => value.toFixed(3)
const lines = ["| type | validation | columns | basic precision | basic recall | enhanced precision | enhanced recall |", "|---|---|---|---|---|---|---|"]
basicScore.perType.forEach((score, index) => {
  const better = enhancedScore.perType[index]!
  lines.push(`| ${score.type} | ${strengthOf[score.type] ?? ""} | ${score.support} | ${format(score.precision)} | ${format(score.recall)} | ${format(better.precision)} | ${format(better.recall)} |`)
  console.log(JSON.stringify({ bench: "pii-corpus", type: score.type, support: score.support, basic: { precision: score.precision, recall: score.recall }, enhanced: { precision: better.precision, recall: better.recall } }))
})
lines.push(`| decoys and ordinary columns (flagged share) | | ${basicScore.decoys.columns} | ${format(basicScore.decoys.falsePositiveRate)} | | ${format(enhancedScore.decoys.falsePositiveRate)} | |`)
console.error(lines.join("\n"))
console.error(`median scan per corpus table: basic ${median(basicTimes).toFixed(1)} ms, enhanced ${median(enhancedTimes).toFixed(1)} ms`)
console.log(JSON.stringify({ bench: "pii-corpus-time", basicMs: median(basicTimes), enhancedMs: median(enhancedTimes) }))

/** The privacy service's path: Arrow table in memory → sample → basic and enhanced scans. */
const timeScans = (label: string, csv: string | Buffer) =>
  Effect.gen(function* () {
    const { table: ipc } = yield* ingestTable(() => Stream.make(typeof csv === "string" ? new TextEncoder().encode(csv) : new Uint8Array(csv)))
    const chunks = yield* Stream.runCollect(ipc)
    const bytes = Buffer.concat([...chunks])
    const times = { read: [] as Array<number>, sample: [] as Array<number>, basic: [] as Array<number>, enhanced: [] as Array<number> }
    let rows = 0
    let columns = 0
    for (let round = 0; round < rounds; round++) {
      const reading = performance.now()
      const table = yield* readTable(Stream.make(new Uint8Array(bytes)))
      rows = table.numRows
      columns = table.numCols
      const started = performance.now()
      times.read.push(started - reading)
      const input = sampleScanInput(table, 10_000)
      const sampled = performance.now()
      const scanned = scanColumns(input)
      const scannedAt = performance.now()
      mergeAiVerdicts(scanned, classifyColumns(input), input)
      const enhancedAt = performance.now()
      times.sample.push(sampled - started)
      times.basic.push(scannedAt - sampled)
      times.enhanced.push(enhancedAt - scannedAt)
    }
    const result = { bench: "pii-scan", table: label, rows, columns, tableMiB: +(bytes.length / 2 ** 20).toFixed(1), readMs: median(times.read), sampleMs: median(times.sample), basicMs: median(times.basic), aiLayerMs: median(times.enhanced) }
    console.log(JSON.stringify(result))
    console.error(`${label}: ${rows} rows (${result.tableMiB} MiB Arrow); read ${result.readMs.toFixed(0)} ms, sample ${result.sampleMs.toFixed(0)} ms, basic scan ${result.basicMs.toFixed(0)} ms, local AI layer ${result.aiLayerMs.toFixed(0)} ms`)
  })

/** A customer-like table: ids, names, emails, phones, dates of birth, ZIP codes, plans and amounts. */
const generatedCsv = (rows: number) => {
  const first = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Katherine", "Linus", "Margaret", "Ken"]
  const last = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Johnson", "Torvalds", "Hamilton", "Thompson"]
  const lines = ["customer_id,full_name,email,phone,date_of_birth,zip,plan,amount"]
  for (let row = 0; row < rows; row++) {
    const name = `${first[row % 10]} ${last[(row * 7) % 10]}`
    const year = 1940 + (row % 60)
    lines.push(
      `${row + 1},${name},user${row}@example.com,+1 415-555-${String(row % 10_000).padStart(4, "0")},${year}-0${1 + (row % 9)}-1${row % 10},` +
        `${String(10_000 + ((row * 37) % 89_999)).padStart(5, "0")},${["basic", "plus", "pro"][row % 3]},${((row * 13) % 50_000) / 100}`
    )
  }
  return lines.join("\n")
}

if (scale > 0) {
  await Effect.runPromise(
    Effect.gen(function* () {
      yield* timeScans("diamonds", readFileSync(join(repoRoot, "test/fixtures/datasets/diamonds.csv")))
      yield* timeScans("generated 10,000", generatedCsv(10_000))
      yield* timeScans(`generated ${scale.toLocaleString("en-US")}`, generatedCsv(scale))
    })
  )
}

/**
 * Throughput of openRecords plus a full iteration, per format, on ~100 MB files generated in a temp dir.
 * Run: node test/bench/records.bench.ts [megabytes]
 */
import { createReadStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { openRecords } from "@synth/tabular/passes"

const megabytes = Number(process.argv[2] ?? 100)
const CHUNK_BYTES = 64 * 1024

const csvRow = (i: number) =>
  `${i},${(i * 7.31).toFixed(2)},customer ${i % 977},${i % 3 === 0},2024-0${(i % 9) + 1}-1${i % 10},` +
  (i % 10 === 0 ? `"Main St, ${i}\nApt ""${i % 50}"""` : `plain text value ${i}`) + `,,${i % 100}\n`
const csvHeader = "id,amount,name,active,date,address,empty,small\n"
const jsonObject = (i: number) =>
  `{"id":${i},"amount":${(i * 7.31).toFixed(2)},"name":"customer ${i % 977}","active":${i % 3 === 0},` +
  `"address":{"street":"Main St \\"${i}\\"","zip":"${i % 99999}"},"tags":["a","b"],"note":null}`

const writeFile = async (file: string, start: string, row: (i: number) => string, separator: string, end: string) => {
  const handle = await fs.open(file, "w")
  let size = 0
  let block = start
  for (let i = 0; size < megabytes * 1024 * 1024; i++) {
    block += (i > 0 ? separator : "") + row(i)
    if (block.length > 1 << 20) {
      size += block.length
      await handle.write(block)
      block = ""
    }
  }
  await handle.write(block + end)
  await handle.close()
}

const measure = async (label: string, file: string) => {
  const { size } = await fs.stat(file)
  const read = () => createReadStream(file, { highWaterMark: CHUNK_BYTES })
  let start = performance.now()
  for await (const _ of read()) { /* the cost of reading alone */ }
  const readMs = performance.now() - start
  start = performance.now()
  const records = await openRecords(read)
  let rows = 0
  let batches = 0
  for await (const batch of records.batches) {
    rows += batch.length
    batches++
  }
  const ms = performance.now() - start
  const mb = size / 1e6
  console.log(`${label}: ${mb.toFixed(0)} MB, ${rows} rows in ${batches} batches, ${records.columns.length} columns, ` +
    `${records.encoding}: ${(mb / (ms / 1000)).toFixed(0)} MB/s (${ms.toFixed(0)} ms; reading alone ${readMs.toFixed(0)} ms)`)
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "records-bench-"))
try {
  const csv = path.join(dir, "mixed.csv")
  await writeFile(csv, csvHeader, csvRow, "", "")
  const json = path.join(dir, "rows.json")
  await writeFile(json, "[\n", jsonObject, ",\n", "\n]\n")
  const ndjson = path.join(dir, "rows.ndjson")
  await writeFile(ndjson, "", jsonObject, "\n", "\n")
  const latin1 = path.join(dir, "late-latin1.csv")
  await fs.writeFile(latin1, Buffer.concat([await fs.readFile(csv), Buffer.from("9,1.0,caf\xe9,true,2024-01-01,x,,1\n", "latin1")]))
  for (let round = 0; round < 2; round++) {
    await measure("csv", csv)
    await measure("csv, Windows-1252 from the last line", latin1)
    await measure("json array", json)
    await measure("ndjson", ndjson)
  }
} finally {
  await fs.rm(dir, { recursive: true, force: true })
}

import { type Table, tableToIPC } from "apache-arrow"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import type { JobRequest } from "./protocol.ts"
import { type Outcome, runInWorker } from "./runInWorker.ts"
import { ingest, parseCsv, render } from "./testing/download.ts"

// Every generator's output, and a later sample of a stored model, downloads in the form the source file wrote:
// boolean spellings, date and datetime layouts, decimal commas, thousands separators and decimals (issue 22).

const pad = (value: number) => String(value).padStart(2, "0")
const rows = 240

/** Row `i` of a file that writes each column its own way; a few cells are empty (missing). */
const row = (i: number) => {
  const day = 1 + (i % 28)
  const month = 1 + (i % 12)
  const amount = (1_000 + ((i * 7_919) % 90_000)) / 100
  const euro = amount.toFixed(2).replace(".", ",").replace(/^(\d+)(\d{3}),/, "$1.$2,")
  return [
    i % 3 === 0 ? "Yes" : "No",
    i % 11 === 0 ? "" : String(i % 2),
    i % 5 === 0 ? "TRUE" : "FALSE",
    `${pad(month)}/${pad(day)}/20${pad(10 + (i % 12))}`,
    `${pad(day)}.${pad(month)}.19${60 + (i % 40)}`,
    `${month}/${day}/2024 ${1 + (i % 12)}:${pad((i * 7) % 60)} ${i % 2 === 0 ? "AM" : "PM"}`,
    `"${euro}"`,
    (((i * 37) % 1_000) / 4).toFixed(2),
    `"${(1_000 + ((i * 613_457) % 9_800_000)).toLocaleString("en-US")}"`,
    ["Lyon", "Oslo", "Lima", "Kyiv"][i % 4]!
  ].join(",")
}

const header = "member,flag,active,joined,birth,seen,amount,score,count,city"
const csv = [header, ...Array.from({ length: rows }, (_, i) => row(i))].join("\r\n")

/** What each column's cells must look like in the download (an empty cell is a missing value). */
const shapes: Record<string, RegExp> = {
  member: /^(Yes|No)$/,
  flag: /^[10]$/,
  active: /^(TRUE|FALSE)$/,
  joined: /^\d{2}\/\d{2}\/\d{4}$/,
  birth: /^\d{2}\.\d{2}\.\d{4}$/,
  seen: /^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2} (AM|PM)$/,
  amount: /^-?\d{1,3}(\.\d{3})*,\d{2}$/,
  score: /^-?\d+\.\d{2}$/,
  count: /^-?\d{1,3}(,\d{3})*$/,
  city: /^(Lyon|Oslo|Lima|Kyiv)$/
}

const nothingFound = { kind: "basic" as const, result: { findings: [], identifiers: [], quasi_identifiers: [] } }
const protection = { rareCategoryThreshold: 5, valueProtection: true, rareCategoryProtection: true, similarityFilter: true, holdoutShare: 0.1 }

const train = (
  generator: Extract<JobRequest, { kind: "train" }>["generator"],
  table: Table,
  neural: { epochs: number; batchSize: number; targetEpsilon: number | null } | null
): JobRequest => ({
  kind: "train",
  generator,
  table: Uint8Array.from(tableToIPC(table, "stream")),
  parameters: { seed: 7, epochs: neural?.epochs ?? null, batchSize: neural?.batchSize ?? null, targetEpsilon: neural?.targetEpsilon ?? null, threads: 1 },
  numRows: 300,
  scan: nothingFound,
  // A faked date column keeps its layout too.
  overrides: { birth: "fake" },
  protection
})

const done = (outcome: Outcome) => {
  if (outcome.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(outcome)}`)
  return outcome
}

const expectSourceForms = async (ipc: Uint8Array) => {
  const cells = parseCsv(await render(ipc, "csv"))
  expect(cells[0]!.join(",")).toBe(header)
  expect(cells.length).toBe(301)
  const names = header.split(",")
  for (const line of cells.slice(1)) {
    names.forEach((name, column) => {
      const cell = line[column]!
      if (cell !== "" && !shapes[name]!.test(cell)) throw new Error(`${name}: ${JSON.stringify(cell)} is not in the source form`)
    })
  }
  // Every column has values (a check that cannot pass on an empty output).
  expect(names.filter((_, column) => cells.slice(1).every((line) => line[column] === ""))).toEqual([])
  const json = JSON.parse(await render(ipc, "json")) as Array<Record<string, unknown>>
  expect(typeof json[0]!["member"]).toBe("boolean")
  expect(typeof json[0]!["amount"]).toBe("number")
  expect(json[0]!["joined"]).toMatch(shapes["joined"]!)
}

let table: Table

beforeAll(async () => {
  table = await ingest(csv)
}, 60_000)

describe("generation outputs keep the source's forms", () => {
  it("the ingested table itself downloads as the file was written", async () => {
    const source = parseCsv(await render(Uint8Array.from(tableToIPC(table, "stream")), "csv"))
    expect(source.length).toBe(rows + 1)
    expect(source).toEqual(parseCsv(csv))
  })

  const generators = [
    ["gaussian_copula", null],
    ["ctgan", { epochs: 2, batchSize: 50, targetEpsilon: null }],
    ["tvae", { epochs: 2, batchSize: 50, targetEpsilon: null }],
    ["dp-ctgan", { epochs: 1, batchSize: 50, targetEpsilon: 10 }]
  ] as const
  for (const [generator, neural] of generators) {
    it(`${generator}: the output and a later sample of the stored model`, async () => {
      const trained = done(await Effect.runPromise(runInWorker(train(generator, table, neural), () => {})))
      await expectSourceForms(Uint8Array.from(trained.table))
      expect(trained.columns.find((column) => column.name === "member")?.sourceFormat).toBe("yes/no")
      const sample = done(await Effect.runPromise(runInWorker({
        kind: "sample",
        artifact: Uint8Array.from(trained.artifact!),
        filters: trained.filters === null ? null : Uint8Array.from(trained.filters),
        numRows: 300,
        seed: 11
      }, () => {})))
      await expectSourceForms(Uint8Array.from(sample.table))
    }, 120_000)
  }
})

// The evaluation report in a real browser (Debian's chromium through playwright-core): it renders every section,
// asks nothing of the network and runs no data as markup; it shows the figures before the recommendations, and a
// finding on 31 columns reads as one recommendation. Full-page screenshots are kept in test/artifacts.
import { evaluationRun, renderEvaluationReport } from "@synth/evaluation"
import { synthTableFromArrow, type SynthTable } from "@synth/synth"
import { ingestTable, readTable } from "@synth/tabular"
import { Effect, Result, Stream } from "effect"
import { mkdirSync, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureChromium } from "../support/chromium.ts"
import { wideColumnNames, wideTables } from "./wideTables.ts"

const fixtures = new URL("../../libs/evaluation/reference/fixtures/", import.meta.url)
const artifacts = new URL("../artifacts/", import.meta.url)
const hostileName = "<script>alert(1)</script>"

/** CSV bytes typed as uploads are. */
const tableOf = (bytes: Uint8Array): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(bytes)), ({ table }) => readTable(table)).pipe(
      Effect.map((table) => Result.getOrThrow(synthTableFromArrow(table)))
    )
  )

/** A fixture CSV with the `city` column renamed to markup (user data the page must escape). */
const loadFixture = async (name: string): Promise<SynthTable> => {
  const table = await tableOf(new Uint8Array(readFileSync(new URL(name, fixtures))))
  return { ...table, columns: table.columns.map((column) => (column.name === "city" ? { ...column, name: hostileName } : column)) }
}

/** Each page at its path on one local server. */
const serve = (pages: Readonly<Record<string, string>>): Promise<{ readonly server: Server; readonly baseUrl: string }> =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      const html = pages[request.url ?? ""]
      if (html === undefined) response.writeHead(404).end()
      else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html)
    })
    server.listen(0, "127.0.0.1", () => resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })

/** Where an element's top edge lies on the page. */
const topOf = async (page: Page, selector: string): Promise<number> => {
  const box = await page.locator(selector).first().boundingBox()
  expect(box, selector).not.toBeNull()
  return box!.y
}

const screenshot = async (page: Page, name: string) => {
  mkdirSync(fileURLToPath(artifacts), { recursive: true })
  await page.screenshot({ path: fileURLToPath(new URL(name, artifacts)), fullPage: true })
}

describe("the evaluation report in chromium", () => {
  let context: BrowserContext
  let server: Server
  let baseUrl: string
  let userDataDir: string
  let columnCount: number

  beforeAll(async () => {
    const executablePath = await ensureChromium()
    const [training, synthetic, holdout] = await Promise.all(["privacy_training.csv", "privacy_synthetic.csv", "privacy_holdout.csv"].map(loadFixture))
    columnCount = training!.columns.length
    const results = evaluationRun(training!, synthetic!, holdout!, {
      sampleSize: 1000,
      seed: 3,
      mlUtility: { algorithms: ["random_forest", "xgboost"], test_size: 0.25, cross_validation_folds: 3, random_state: 5 }
    })
    const wide = wideTables()
    const [wideTraining, wideSynthetic, wideHoldout] = await Promise.all(
      [wide.training, wide.synthetic, wide.holdout].map((text) => tableOf(new TextEncoder().encode(text)))
    )
    const wideResults = evaluationRun(wideTraining!, wideSynthetic!, wideHoldout!, {
      sampleSize: 1000,
      seed: 4,
      generator: "ctgan",
      mlUtility: { algorithms: ["random_forest"], test_size: 0.25, cross_validation_folds: 2, random_state: 5 }
    })
    const header = { evaluationId: "6f1c2d3e-0000-4000-8000-000000000001", createdAt: "2026-01-01T00:00:00.000Z" }
    ;({ server, baseUrl } = await serve({
      "/report": renderEvaluationReport({ ...header, generatorId: "0b7a9c1d-0000-4000-8000-000000000002", generatorType: "gaussian_copula", results }),
      "/wide": renderEvaluationReport({ ...header, generatorId: "0b7a9c1d-0000-4000-8000-000000000003", generatorType: "ctgan", results: wideResults })
    }))
    userDataDir = await mkdtemp(join(tmpdir(), "synth-chromium-"))
    // A fresh profile and chromium's own background traffic off: this machine's network refuses connections out.
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"
      ]
    })
  }, 15 * 60_000)

  afterAll(async () => {
    await context?.close()
    await new Promise((closed) => (server === undefined ? closed(undefined) : server.close(closed)))
    if (userDataDir !== undefined) await rm(userDataDir, { recursive: true, force: true })
  })

  it("renders every section from the page alone, shows user data as text and keeps a screenshot", async () => {
    const url = `${baseUrl}/report`
    const page = await context.newPage()
    const requests: Array<string> = []
    const dialogs: Array<string> = []
    page.on("request", (request) => requests.push(request.url()))
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    const response = await page.goto(url, { waitUntil: "networkidle" })
    expect(response?.status()).toBe(200)

    for (const heading of ["Synthetic data evaluation report", "Recommendations", "Column distributions", "Correlations",
      "Column shapes and pair trends", "Diagnostic", "ML utility", "Privacy"]) {
      await expect.poll(() => page.getByRole("heading", { name: heading, exact: true }).first().isVisible()).toBe(true)
    }
    expect(await page.locator("svg.chart").count()).toBeGreaterThanOrEqual(columnCount)
    expect(await page.locator("svg.heatmap").count()).toBe(3)
    expect(await page.getByRole("heading", { name: hostileName, exact: true }).isVisible()).toBe(true)
    expect(await page.locator("script").count()).toBe(0)
    expect(await page.locator("#utility table tbody tr").count()).toBeGreaterThan(0)
    expect(await page.locator("#privacy").innerText()).toContain("Membership inference AUC")
    // The fixture's generator has no column roles: the disclosure checks could not run, so the verdict is "not safe".
    expect(await page.locator("#privacy .verdict").innerText()).toContain("Not safe to share.")
    expect(await page.locator("#privacy .verdict").isVisible()).toBe(true)
    expect(await page.locator("#privacy table").first().locator("tbody tr").count()).toBe(5)

    // Shown before told: the header's verdict, then every picture, then the recommendations, then the detail tables.
    expect(await page.locator("header#summary").innerText()).toMatch(/Safe to share\s*No|No\s*Safe to share/)
    const tops = await Promise.all(["header#summary", "svg.chart", "svg.heatmap", "#privacy .verdict", "#utility", "#recommendations",
      "#quality", "#diagnostic"].map((selector) => topOf(page, selector)))
    expect([...tops].sort((a, b) => a - b)).toEqual(tops)

    await screenshot(page, "evaluation-report.png")
    expect(dialogs).toEqual([])
    expect(requests).toEqual([url])
  })

  it("a 31-column CTGAN output: pictures first, heat maps side by side, one recommendation naming the 31 columns", async () => {
    const page = await context.newPage()
    const response = await page.goto(`${baseUrl}/wide`, { waitUntil: "networkidle" })
    expect(response?.status()).toBe(200)
    expect(await page.locator("#distributions svg.chart").count()).toBe(31)

    const firstChart = await topOf(page, "#distributions svg.chart")
    const firstRecommendation = await topOf(page, "ul.recommendations > li")
    expect(firstChart).toBeLessThan(firstRecommendation)
    expect(await topOf(page, "#privacy")).toBeLessThan(firstRecommendation)

    // Real beside synthetic: one row, real on the left.
    const [real, synthetic] = await Promise.all([0, 1].map((index) => page.locator("#correlations svg.heatmap").nth(index).boundingBox()))
    expect(Math.abs(real!.y - synthetic!.y)).toBeLessThan(1)
    expect(synthetic!.x).toBeGreaterThanOrEqual(real!.x + real!.width)

    // Every column's distribution differs: one entry for all 31, each column named once inside it, not 31 entries.
    const shapes = page.locator(`ul.recommendations > li[data-kind="column_shape"]`)
    expect(await shapes.count()).toBe(1)
    const named = await shapes.locator(".finding-columns").allInnerTexts()
    expect([...named].sort()).toEqual(wideColumnNames)
    const entry = await shapes.innerText()
    for (const name of wideColumnNames) expect(entry.split(new RegExp(`\\b${name}\\b`)).length - 1, name).toBe(1)
    expect(entry.match(/train for more epochs/g)).toHaveLength(1)
    expect(await page.locator("ul.recommendations > li").count()).toBeLessThan(10)
    // The 15 related pairs that lost their relationship are one entry too.
    expect(await page.locator(`ul.recommendations > li[data-kind="pair_trend"] .finding-columns`).count()).toBe(15)

    await screenshot(page, "evaluation-report-31-columns.png")
  })
})

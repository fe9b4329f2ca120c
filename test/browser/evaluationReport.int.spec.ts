// The evaluation report in a real browser (Debian's chromium through playwright-core): it renders every section,
// asks nothing of the network and runs no data as markup. A full-page screenshot is kept in test/artifacts.
import { evaluationRun, renderEvaluationReport } from "@synth/evaluation"
import { synthTableFromArrow, type SynthTable } from "@synth/synth"
import { ingestTable, readTable } from "@synth/tabular"
import { Effect, Either, Stream } from "effect"
import { mkdirSync, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type BrowserContext, chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureChromium } from "../support/chromium.ts"

const fixtures = new URL("../../libs/evaluation/reference/fixtures/", import.meta.url)
const screenshotPath = fileURLToPath(new URL("../artifacts/evaluation-report.png", import.meta.url))
const hostileName = "<script>alert(1)</script>"

/** A fixture CSV typed as uploads are, with the `city` column renamed to markup (user data the page must escape). */
const loadFixture = (name: string): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(new URL(name, fixtures))))), ({ table }) => readTable(table)).pipe(
      Effect.map((table) => Either.getOrThrow(synthTableFromArrow(table))),
      Effect.map((table) => ({ ...table, columns: table.columns.map((column) => (column.name === "city" ? { ...column, name: hostileName } : column)) }))
    )
  )

const serve = (html: string): Promise<{ readonly server: Server; readonly url: string }> =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      if (request.url === "/report") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html)
      else response.writeHead(404).end()
    })
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/report` }))
  })

describe("the evaluation report in chromium", () => {
  let context: BrowserContext
  let server: Server
  let url: string
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
    const html = renderEvaluationReport({
      evaluationId: "6f1c2d3e-0000-4000-8000-000000000001",
      generatorId: "0b7a9c1d-0000-4000-8000-000000000002",
      generatorType: "gaussian_copula",
      createdAt: "2026-01-01T00:00:00.000Z",
      results
    })
    ;({ server, url } = await serve(html))
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

    mkdirSync(fileURLToPath(new URL("../artifacts/", import.meta.url)), { recursive: true })
    await page.screenshot({ path: screenshotPath, fullPage: true })
    expect(dialogs).toEqual([])
    expect(requests).toEqual([url])
  })
})

import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { renderPrometheus, scrape } from "./prometheus.ts"

const linesOf = (text: string, prefix: string) => text.split("\n").filter((line) => line.startsWith(prefix))

describe("renderPrometheus", () => {
  it.effect("renders counters, gauges and cumulative histogram buckets with escaped labels", () =>
    Effect.gen(function* () {
      const counter = Metric.counter("test_render_total", { description: "Things done." })
      const gauge = Metric.gauge("test_render_depth")
      const histogram = Metric.histogram("test_render_seconds", {
        boundaries: Metric.boundariesFromIterable([0.1, 1]),
        description: "How long."
      })
      yield* Metric.update(Metric.withAttributes(counter, { kind: 'a"b\\c\nd' }), 3)
      yield* Metric.update(gauge, 7)
      yield* Metric.update(histogram, 0.05)
      yield* Metric.update(histogram, 0.5)
      yield* Metric.update(histogram, 5)
      const text = renderPrometheus(yield* Metric.snapshot)

      expect(text).toContain("# HELP test_render_total Things done.\n# TYPE test_render_total counter\n")
      expect(linesOf(text, "test_render_total{")).toEqual(['test_render_total{kind="a\\"b\\\\c\\nd"} 3'])
      expect(text).toContain("# TYPE test_render_depth gauge\ntest_render_depth 7\n")
      expect(linesOf(text, "test_render_seconds")).toEqual([
        'test_render_seconds_bucket{le="0.1"} 1',
        'test_render_seconds_bucket{le="1"} 2',
        'test_render_seconds_bucket{le="+Inf"} 3',
        "test_render_seconds_sum 5.55",
        "test_render_seconds_count 3"
      ])
      expect(text.split("\n").filter((line) => line === "# TYPE test_render_seconds histogram")).toHaveLength(1)
    }))

  it.effect("puts every series of a family under one header", () =>
    Effect.gen(function* () {
      const counter = Metric.counter("test_family_total")
      yield* Metric.update(Metric.withAttributes(counter, { topic: "a" }), 1)
      yield* Metric.update(Metric.withAttributes(counter, { topic: "b" }), 1)
      const text = renderPrometheus(yield* Metric.snapshot)
      const lines = text.split("\n")
      const header = lines.indexOf("# TYPE test_family_total counter")
      expect(lines.filter((line) => line === "# TYPE test_family_total counter")).toHaveLength(1)
      expect(lines.slice(header + 1, header + 3).sort()).toEqual(['test_family_total{topic="a"} 1', 'test_family_total{topic="b"} 1'])
    }))

  it.effect("a scrape includes the process's own figures", () =>
    Effect.gen(function* () {
      const text = yield* scrape
      expect(text).toMatch(/^process_cpu_seconds_total \d+(\.\d+)?(e[-+]\d+)?$/m)
      expect(text).toMatch(/^process_resident_memory_bytes [1-9]\d*$/m)
      expect(text).toMatch(/^process_start_time_seconds [1-9]\d*$/m)
    }))
})

import { Effect, Metric } from "effect"

/**
 * Metrics are Effect's own `Metric` values, recorded where things happen (the event writer in @synth/eventlog, the
 * job runner in @synth/generation, the gateway's request wrapper) into Effect's process-wide registry: libraries
 * need nothing but `effect` to be measured, and there is one registry for the whole process, whichever runtime
 * composes it. This module only renders that registry in the Prometheus text exposition format (version 0.0.4).
 * prom-client was the alternative; it would have meant a second registry that every lib imports, and its default
 * collectors lean on Node internals (GC hooks, event-loop delay) that Deno 2 does not fully provide.
 */
export const prometheusContentType = "text/plain; version=0.0.4; charset=utf-8"

const validName = (name: string) => {
  const cleaned = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned
}

const escapeLabelValue = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

const formatValue = (value: number | bigint) => {
  if (typeof value === "bigint") return value.toString()
  if (Number.isNaN(value)) return "NaN"
  if (value === Number.POSITIVE_INFINITY) return "+Inf"
  if (value === Number.NEGATIVE_INFINITY) return "-Inf"
  return String(value)
}

type Labels = ReadonlyArray<readonly [string, string]>

const labelText = (labels: Labels) =>
  labels.length === 0
    ? ""
    : `{${labels.map(([key, value]) => `${validName(key)}="${escapeLabelValue(value)}"`).join(",")}}`

interface Family {
  readonly type: "counter" | "gauge" | "histogram"
  readonly help: string | undefined
  readonly samples: Array<string>
}

/**
 * The Prometheus text for the given metric snapshots (Effect's `Metric.snapshot`): one HELP/TYPE header per family and
 * its samples, histograms as cumulative `_bucket{le=...}` series with `_sum` and `_count`. Frequencies and
 * summaries are not rendered (nothing here records them).
 */
export const renderPrometheus = (snapshots: ReadonlyArray<Metric.Metric.Snapshot>): string => {
  const families = new Map<string, Family>()
  const familyOf = (name: string, type: Family["type"], help: string | undefined) => {
    const existing = families.get(name)
    if (existing !== undefined) return existing
    const created: Family = { type, help, samples: [] }
    families.set(name, created)
    return created
  }
  for (const snapshot of snapshots) {
    const name = validName(snapshot.id)
    const help = snapshot.description
    const labels: Labels = Object.entries(snapshot.attributes ?? {})
    if (snapshot.type === "Counter") {
      familyOf(name, "counter", help).samples.push(`${name}${labelText(labels)} ${formatValue(snapshot.state.count)}`)
    } else if (snapshot.type === "Gauge") {
      familyOf(name, "gauge", help).samples.push(`${name}${labelText(labels)} ${formatValue(snapshot.state.value)}`)
    } else if (snapshot.type === "Histogram") {
      const state = snapshot.state
      const family = familyOf(name, "histogram", help)
      let sawInfinity = false
      for (const [bound, cumulative] of state.buckets) {
        if (bound === Number.POSITIVE_INFINITY) sawInfinity = true
        family.samples.push(`${name}_bucket${labelText([...labels, ["le", formatValue(bound)]])} ${cumulative}`)
      }
      if (!sawInfinity) family.samples.push(`${name}_bucket${labelText([...labels, ["le", "+Inf"]])} ${state.count}`)
      family.samples.push(`${name}_sum${labelText(labels)} ${formatValue(state.sum)}`)
      family.samples.push(`${name}_count${labelText(labels)} ${state.count}`)
    }
  }
  const lines: Array<string> = []
  for (const [name, family] of families) {
    if (family.help !== undefined) lines.push(`# HELP ${name} ${escapeHelp(family.help)}`)
    lines.push(`# TYPE ${name} ${family.type}`)
    lines.push(...family.samples)
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`
}

const startTimeSeconds = Math.round(Date.now() / 1000 - process.uptime())

/**
 * The process's own figures, read at scrape time, under the names prom-client's default collectors use (so the
 * usual dashboards work): CPU seconds, resident memory, heap, start time.
 */
export const processMetricsText = (): string => {
  const cpu = process.cpuUsage()
  const memory = process.memoryUsage()
  const sample = (name: string, type: "counter" | "gauge", help: string, value: number) =>
    `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${formatValue(value)}\n`
  return [
    sample("process_cpu_user_seconds_total", "counter", "User CPU time spent in seconds.", cpu.user / 1e6),
    sample("process_cpu_system_seconds_total", "counter", "System CPU time spent in seconds.", cpu.system / 1e6),
    sample("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", (cpu.user + cpu.system) / 1e6),
    sample("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", memory.rss),
    sample("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", startTimeSeconds),
    sample("nodejs_heap_size_total_bytes", "gauge", "Process heap size from Node.js in bytes.", memory.heapTotal),
    sample("nodejs_heap_size_used_bytes", "gauge", "Process heap size used from Node.js in bytes.", memory.heapUsed),
    sample("nodejs_external_memory_bytes", "gauge", "Node.js external memory size in bytes.", memory.external)
  ].join("")
}

/** Everything this process exposes at /metrics: its Effect metrics, then the process's own figures. */
export const scrape: Effect.Effect<string> = Effect.map(
  Metric.snapshot,
  (snapshots) => renderPrometheus(snapshots) + processMetricsText()
)

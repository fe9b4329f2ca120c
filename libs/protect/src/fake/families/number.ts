import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { FakeGenerator } from "../FakePlan.ts"
import { heldMix } from "../mix.ts"

/**
 * Non-integer numbers of a faked numeric column (a measurement typed as a personal value): uniform between the k-th
 * smallest and k-th largest real value rounded outward to two significant digits, so no one value bounds the output.
 */
type DecimalGenerator = Extract<FakeGenerator, { _tag: "decimal" }>
type BooleanGenerator = Extract<FakeGenerator, { _tag: "boolean" }>

const outward = (value: number, direction: "down" | "up") => {
  if (value === 0) return 0
  const scale = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 1)
  return (direction === "down" ? Math.floor(value / scale) : Math.ceil(value / scale)) * scale
}

const decimalsOf = (text: string) => (text.includes(".") ? text.length - text.indexOf(".") - 1 : 0)

export const learnDecimal = (values: ReadonlyArray<string>, context: LearnContext): DecimalGenerator => {
  const numbers = values.map(Number).filter(Number.isFinite).sort((a, b) => a - b)
  const rank = Math.max(1, context.k) - 1
  if (numbers.length <= 2 * rank) return defaultDecimal
  const decimals = heldMix(values.map(decimalsOf), (count) => String(Math.min(count, 10)), context.k)[0]?.value ?? 2
  return { _tag: "decimal", low: outward(numbers[rank]!, "down"), high: outward(numbers[numbers.length - 1 - rank]!, "up"), decimals: Math.min(decimals, 10) }
}

export const defaultDecimal: DecimalGenerator = { _tag: "decimal", low: 0, high: 1, decimals: 4 }

export const compileDecimal = (generator: DecimalGenerator, context: CompileContext): CandidateSource => () => {
  const text = String(Number((generator.low + context.draws.unit() * (generator.high - generator.low)).toFixed(generator.decimals)))
  return { text, key: text }
}

export const decimalKey = (value: string) => String(Number(value))

export const booleanGenerator: BooleanGenerator = { _tag: "boolean" }

/** A boolean column cannot identify anyone on its own: faked, it is a fair coin. */
export const compileBoolean = (context: CompileContext): CandidateSource => () => {
  const text = context.draws.chance(0.5) ? "true" : "false"
  return { text, key: text }
}

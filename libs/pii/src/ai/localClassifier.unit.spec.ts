import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { generateCorpus } from "../corpus/generateCorpus.ts"
import { artifactOf, classifierClasses, modelOf } from "./artifact.ts"
import { columnFeatures } from "./features.ts"
import { classifyColumns, localClassifier } from "./localClassifier.ts"
import { localClassifierVersion } from "./localClassifierVersion.ts"
import { trainSoftmax } from "./softmaxRegression.ts"
import { valueShape } from "./valueShape.ts"

describe("valueShape", () => {
  it("keeps punctuation and classes, never a letter or digit of the value", () => {
    expect(valueShape("Ada Lovelace")).toBe("Aaa Aa{4-7}")
    expect(valueShape("123-45-6789")).toBe("999-99-9{4-7}")
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (value) => {
        // Letters and digits of a shape are only the classes A, a, 9 and the run-length buckets like {4-7}.
        expect(valueShape(value).replace(/\{(?:4-7|8-15|16\+)\}/g, "")).not.toMatch(/[^Aa9\P{L}]|[0-8]/u)
      })
    )
  })
})

describe("the shipped local classifier", () => {
  it("has the version its light-weight name says (what a scan result records without loading the classifier)", () => {
    expect(localClassifier.version).toBe(localClassifierVersion)
  })

  it("is the artifact the training script wrote", () => {
    expect(localClassifier.version).toBe("local-classifier-v2")
    expect(localClassifier.training.heldOutAccuracy).toBeGreaterThan(0.95)
  })

  it("classifies a fresh corpus (a seed it was not trained on) with at least 90 % accuracy", () => {
    const corpus = generateCorpus({ seed: 777, tables: 40, rowsPerTable: 60 })
    let correct = 0
    let total = 0
    for (const table of corpus) {
      classifyColumns(table.input).forEach((verdict, index) => {
        total++
        if (verdict.type === (table.labels[index] ?? null)) correct++
        expect(verdict.confidence).toBeGreaterThan(0)
        expect(verdict.confidence).toBeLessThanOrEqual(1)
      })
    }
    expect(correct / total).toBeGreaterThan(0.9)
  })
})

describe("training", () => {
  it("is reproducible: the same corpus and seed give the same artifact", () => {
    const examples = generateCorpus({ seed: 5, tables: 12, rowsPerTable: 30 }).flatMap((table) =>
      table.input.columns.map((column, index) => ({ features: columnFeatures(column), label: classifierClasses.indexOf(table.labels[index] ?? null) }))
    )
    const options = { epochs: 2, batchSize: 16, learningRate: 0.01, l2: 1e-4, seed: 3 }
    const training = { corpusSeeds: [5], tables: 12, rowsPerTable: 30, epochs: 2, examples: examples.length, heldOutAccuracy: 0 }
    const first = artifactOf(trainSoftmax(examples, classifierClasses.length, options), "test", training)
    const second = artifactOf(trainSoftmax(examples, classifierClasses.length, options), "test", training)
    expect(JSON.stringify(first)).toBe(JSON.stringify(second))
    expect(modelOf(first).weights.length).toBe(classifierClasses.length * examples[0]!.features.length)
  })
})

import type { SpeedModelGenerator } from "./speedModel.ts"

/** The generator types trainModel can fit in this build. */
export const trainableGenerators: ReadonlyArray<SpeedModelGenerator> = ["gaussian_copula", "ctgan", "dp-ctgan", "tvae"]

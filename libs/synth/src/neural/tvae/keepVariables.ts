import * as tf from "@tensorflow/tfjs"

/**
 * Runs `build` in a tf.tidy scope and returns what it built. `tf.variable(t)` keeps `t` registered beside the
 * variable, holding its memory after the variable is disposed (one stray tensor per variable, per training); in a
 * tidy scope `t` is freed at the end, while variables are never touched by tidy.
 */
export const keepVariables = <A>(build: () => A): A => {
  let built: A | undefined
  tf.tidy(() => {
    built = build()
  })
  return built as A
}

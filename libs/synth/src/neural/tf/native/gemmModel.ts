/**
 * The smallest ONNX model there is: one `Gemm` node, Y = op(A)·op(B), float32 matrices of any size (symbolic
 * dimensions m, k, n), with `transA`/`transB` fixed per model. Written as protobuf bytes here rather than shipped as
 * a file: the model is ~130 bytes and needs no tool to regenerate.
 *
 * Field numbers are those of onnx.proto3 (ModelProto, GraphProto, NodeProto, AttributeProto, ValueInfoProto,
 * TypeProto.Tensor, TensorShapeProto, OperatorSetIdProto).
 */

const varint = (value: number): Array<number> => {
  const bytes: Array<number> = []
  let rest = value
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  bytes.push(rest)
  return bytes
}

/** A varint field (wire type 0). */
const integer = (field: number, value: number): Array<number> => [...varint(field << 3), ...varint(value)]

/** A length-delimited field (wire type 2): a string or a nested message. */
const bytesField = (field: number, payload: ReadonlyArray<number>): Array<number> => [
  ...varint((field << 3) | 2),
  ...varint(payload.length),
  ...payload
]

const text = (field: number, value: string): Array<number> => bytesField(field, [...new TextEncoder().encode(value)])

const FLOAT = 1
const ATTRIBUTE_INT = 2

/** A float32 matrix input or output with symbolic dimensions. */
const matrix = (name: string, rows: string, columns: string): Array<number> => {
  const dimension = (symbol: string) => bytesField(1, text(2, symbol))
  const shape = bytesField(2, [...dimension(rows), ...dimension(columns)])
  const tensorType = bytesField(1, [...integer(1, FLOAT), ...shape])
  return [...text(1, name), ...bytesField(2, tensorType)]
}

const intAttribute = (name: string, value: number): Array<number> => [
  ...text(1, name),
  ...integer(3, value),
  ...integer(20, ATTRIBUTE_INT)
]

/** A float32 vector input with a symbolic length. */
const vector = (name: string, length: string): Array<number> => {
  const shape = bytesField(2, bytesField(1, text(2, length)))
  return [...text(1, name), ...bytesField(2, bytesField(1, [...integer(1, FLOAT), ...shape]))]
}

/**
 * Inputs `a` and `b`, output `y`; `a` is [k, m] when transposed, `b` is [n, k] when transposed. With `bias`, a third
 * input `c` of length n is added to every row (Gemm's broadcast C): a dense layer's x·W + b in one pass.
 */
export const gemmModel = (transposeA: boolean, transposeB: boolean, bias = false): Uint8Array => {
  const node = [
    ...text(1, "a"),
    ...text(1, "b"),
    ...(bias ? text(1, "c") : []),
    ...text(2, "y"),
    ...text(4, "Gemm"),
    ...bytesField(5, intAttribute("transA", transposeA ? 1 : 0)),
    ...bytesField(5, intAttribute("transB", transposeB ? 1 : 0))
  ]
  const graph = [
    ...bytesField(1, node),
    ...text(2, "gemm"),
    ...bytesField(11, transposeA ? matrix("a", "k", "m") : matrix("a", "m", "k")),
    ...bytesField(11, transposeB ? matrix("b", "n", "k") : matrix("b", "k", "n")),
    ...(bias ? bytesField(11, vector("c", "n")) : []),
    ...bytesField(12, matrix("y", "m", "n"))
  ]
  const opset = [...text(1, ""), ...integer(2, 13)]
  return Uint8Array.from([...integer(1, 8), ...bytesField(7, graph), ...bytesField(8, opset)])
}

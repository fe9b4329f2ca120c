/**
 * A small writer of ONNX models as protobuf bytes: a graph of nodes over float32 (or int64) inputs and outputs with
 * symbolic or fixed dimensions, integer attributes only. The models here are a handful of nodes each and are built at
 * start-up, so no tool, file or Python is needed to regenerate them.
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

/** A varint field (wire type 0); values are non-negative. */
const integer = (field: number, value: number): Array<number> => [...varint(field << 3), ...varint(value)]

/** A length-delimited field (wire type 2): a string or a nested message. */
const bytesField = (field: number, payload: ReadonlyArray<number>): Array<number> => [
  ...varint((field << 3) | 2),
  ...varint(payload.length),
  ...payload
]

const text = (field: number, value: string): Array<number> => bytesField(field, [...new TextEncoder().encode(value)])

const ELEMENT_TYPES = { float: 1, int64: 7 } as const
const ATTRIBUTE_INT = 2
const ATTRIBUTE_INTS = 7

export interface GraphValue {
  readonly name: string
  /** A symbol ("m") or a fixed size per dimension; [] for a scalar. */
  readonly dims: ReadonlyArray<string | number>
  readonly type?: keyof typeof ELEMENT_TYPES
}

export interface GraphNode {
  readonly op: string
  readonly inputs: ReadonlyArray<string>
  readonly outputs: ReadonlyArray<string>
  /** Non-negative integer attributes (transA, axis, keepdims…) or lists of them (axes). */
  readonly attributes?: Readonly<Record<string, number | ReadonlyArray<number>>>
}

const valueInfo = ({ dims, name, type = "float" }: GraphValue): Array<number> => {
  const dimensions = dims.flatMap((dimension) => bytesField(1, typeof dimension === "number" ? integer(1, dimension) : text(2, dimension)))
  const tensorType = bytesField(1, [...integer(1, ELEMENT_TYPES[type]), ...bytesField(2, dimensions)])
  return [...text(1, name), ...bytesField(2, tensorType)]
}

const attribute = (name: string, value: number | ReadonlyArray<number>): Array<number> =>
  typeof value === "number"
    ? [...text(1, name), ...integer(3, value), ...integer(20, ATTRIBUTE_INT)]
    : [...text(1, name), ...value.flatMap((item) => integer(8, item)), ...integer(20, ATTRIBUTE_INTS)]

const nodeBytes = ({ attributes = {}, inputs, op, outputs }: GraphNode): Array<number> => [
  ...inputs.flatMap((input) => text(1, input)),
  ...outputs.flatMap((output) => text(2, output)),
  ...text(4, op),
  ...Object.entries(attributes).flatMap(([name, value]) => bytesField(5, attribute(name, value)))
]

/** A node with one output. */
export const node = (op: string, inputs: ReadonlyArray<string>, output: string, attributes?: GraphNode["attributes"]): GraphNode =>
  attributes === undefined ? { op, inputs, outputs: [output] } : { op, inputs, outputs: [output], attributes }

/** A float32 (or int64) graph input or output. */
export const value = (name: string, dims: GraphValue["dims"], type?: GraphValue["type"]): GraphValue =>
  type === undefined ? { name, dims } : { name, dims, type }

/** An ONNX model (IR version 8, default opset 13) of one graph. */
export const onnxModel = (graph: {
  readonly name: string
  readonly nodes: ReadonlyArray<GraphNode>
  readonly inputs: ReadonlyArray<GraphValue>
  readonly outputs: ReadonlyArray<GraphValue>
}): Uint8Array => {
  const body = [
    ...graph.nodes.flatMap((node) => bytesField(1, nodeBytes(node))),
    ...text(2, graph.name),
    ...graph.inputs.flatMap((input) => bytesField(11, valueInfo(input))),
    ...graph.outputs.flatMap((output) => bytesField(12, valueInfo(output)))
  ]
  const opset = [...text(1, ""), ...integer(2, 13)]
  return Uint8Array.from([...integer(1, 8), ...bytesField(7, body), ...bytesField(8, opset)])
}

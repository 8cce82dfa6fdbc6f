// The Universal Sentence Encoder Lite's tokenizer, as @energetic-ai/embeddings encodes (same
// vocabulary, same Viterbi over its trie, same quirks, so the same ids and the same vectors), in
// linear time: the package's copy slices the rest of the text at every position (quadratic: about
// 2.5 ms of a 1,000-character chunk, a third of the model's own time per chunk).

const SEPARATOR = "\u2581";
const RESERVED_SYMBOLS = 6;

/** @param {[string, number | null][]} vocabulary */
export function createTokenizer(vocabulary) {
  const root = { children: new Map(), id: -1, score: 0, length: 0 };
  for (let index = RESERVED_SYMBOLS; index < vocabulary.length; index++) {
    const [piece, score] = vocabulary[index];
    let node = root;
    let length = 0;
    for (const symbol of piece) {
      length += 1;
      let child = node.children.get(symbol);
      if (!child) {
        child = { children: new Map(), id: -1, score: 0, length };
        node.children.set(symbol, child);
      }
      node = child;
    }
    // A later duplicate overwrites an earlier one, as in the package's trie.
    node.id = index;
    node.score = score;
  }

  /** @param {string} text @returns {number[]} */
  return function encode(text) {
    const normalized = text.normalize("NFKC");
    const input = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
    const symbols = Array.from(input);
    const count = symbols.length;
    // Pieces ending at each position, in the order of their starts (the package keeps them in an
    // object keyed by start, which iterates in ascending order): [start, score, id] triples.
    const ending = Array.from({ length: count + 1 }, () => []);
    for (let start = 0; start < count; start++) {
      let node = root.children.get(symbols[start]);
      let matched = false;
      for (let at = start; at < count && node; at++) {
        if (node.id >= 0) {
          ending[start + node.length].push(start, node.score, node.id);
          matched = true;
        }
        node = node.children.get(symbols[at + 1]);
      }
      // An unknown symbol: one piece of id 0 (the unknown token) and score 0.
      if (!matched) ending[start + 1].push(start, 0, 0);
    }
    const best = new Array(count + 1).fill(0);
    const words = new Array(count + 1).fill(0);
    for (let end = 0; end <= count; end++) {
      const pieces = ending[end];
      for (let index = 0; index < pieces.length; index += 3) {
        const score = pieces[index + 1] + best[pieces[index]];
        if (best[end] === 0 || score >= best[end]) {
          best[end] = score;
          words[end] = pieces[index + 2];
        }
      }
    }
    // Back from the end by each piece's length in UTF-16 units, as the package does.
    const ids = [];
    for (let at = words.length - 1; at > 0; at -= vocabulary[words[at]][0].length) ids.push(words[at]);
    const merged = [];
    let previousUnknown = false;
    for (const id of ids) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  };
}

/** The Universal Sentence Encoder Lite's tokenizer over its vocabulary ([piece, score] pairs): a text's token ids. */
export function createTokenizer(vocabulary: [string, number | null][]): (text: string) => number[];

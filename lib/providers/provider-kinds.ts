/** The kinds of OpenAI-compatible endpoint an admin can add, with where each usually listens (browser-safe). */
export const PROVIDER_KINDS = {
  openai: { label: "OpenAI", baseUrl: "https://api.openai.com/v1" },
  azure: { label: "Azure OpenAI", baseUrl: "https://YOUR-RESOURCE.openai.azure.com/openai" },
  ollama: { label: "Ollama", baseUrl: "http://localhost:11434/v1" },
  vllm: { label: "vLLM", baseUrl: "http://localhost:8000/v1" },
  other: { label: "Other OpenAI-compatible", baseUrl: "" },
} as const;

export type ProviderKind = keyof typeof PROVIDER_KINDS;

export const PROVIDER_KIND_IDS = Object.keys(PROVIDER_KINDS) as [ProviderKind, ...ProviderKind[]];

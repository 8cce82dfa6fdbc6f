import OpenAI from "openai";
import { openAIClient, type EndpointOptions } from "@/lib/llm/openai-provider";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";

/** Listing models is a quick call: a provider that takes longer is as good as down for a test. */
const LIST_TIMEOUT_MS = 10_000;
const MAX_MODELS = 500;

/**
 * The model ids an endpoint lists (GET {baseUrl}/models), sorted: what "test connection" shows
 * and agents choose from. A failure is an AppError naming the field to fix: the key when it was
 * refused, the address otherwise.
 */
export async function listModels(endpoint: EndpointOptions, timeoutMs = LIST_TIMEOUT_MS): Promise<string[]> {
  const client = openAIClient(endpoint, timeoutMs);
  const ids: string[] = [];
  try {
    for await (const model of client.models.list()) {
      if (ids.length >= MAX_MODELS) break;
      ids.push(model.id);
    }
  } catch (error) {
    throw listFailure(error, endpoint.baseURL ?? "");
  }
  return ids.sort((a, b) => a.localeCompare(b));
}

function listFailure(error: unknown, baseUrl: string): AppError {
  log.warn("provider test failed", { baseUrl, error: error instanceof Error ? error.message : String(error) });
  const host = URL.canParse(baseUrl) ? new URL(baseUrl).host : baseUrl;
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
    const message = `${host} refused the key (${error.status}). Check the API key, and that it may list models.`;
    return new AppError("bad_request", message, { apiKey: message });
  }
  const message =
    error instanceof OpenAI.APIConnectionTimeoutError
      ? `${host} did not answer within ${LIST_TIMEOUT_MS / 1000} s. Check the address, and that the provider is running.`
      : error instanceof OpenAI.APIConnectionError
        ? `Could not reach ${host}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}. Check the address, and that the provider is running.`
        : error instanceof OpenAI.APIError && error.status === 404
          ? `Nothing lists models at ${baseUrl.replace(/\/$/, "")}/models (404). Check the base URL: OpenAI-compatible ones usually end in /v1.`
          : error instanceof OpenAI.APIError && error.status
            ? `${host} answered ${error.status} when asked for its models. Check the address and the key.`
            : `${host} did not answer like an OpenAI-compatible provider. Check the base URL.`;
  return new AppError("bad_request", message, { baseUrl: message });
}

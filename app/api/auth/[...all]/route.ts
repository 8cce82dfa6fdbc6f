import { toNextJsHandler } from "better-auth/next-js";
import { getRuntime } from "@/lib/runtime/runtime";

// better-auth's HTTP API (used by tests to sign in without the form, and by future clients).
const handler = async (request: Request) => (await getRuntime()).auth.handler(request);

export const { GET, POST } = toNextJsHandler(handler);

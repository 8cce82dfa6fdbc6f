"use server";

import { redirect } from "next/navigation";
import { signInSchema, signUpSchema } from "@/lib/auth/credentials";
import { signIn, signUp } from "@/lib/auth/sign-in-out";
import { publicAction } from "@/lib/actions/safe-action";
import type { AuthFormState } from "@/components/auth/auth-form";
import type { ErrorPayload } from "@/lib/errors/app-error";

const signUpAction = publicAction("sign-up", signUpSchema, (input, { runtime, headers }) => signUp(runtime.auth, { input, headers }));
const signInAction = publicAction("sign-in", signInSchema, (input, { runtime, headers }) => signIn(runtime.auth, { input, headers }));

// Form actions (progressive enhancement: they work before the page has hydrated).
export async function signUpFormAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  return submit(signUpAction, form);
}

export async function signInFormAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  return submit(signInAction, form);
}

async function submit(action: (input: unknown) => Promise<{ data: unknown } | { error: ErrorPayload }>, form: FormData): Promise<AuthFormState> {
  const input = Object.fromEntries(form);
  const result = await action(input);
  if ("error" in result) {
    return { error: result.error, values: { name: text(input.name), email: text(input.email) } };
  }
  redirect("/");
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

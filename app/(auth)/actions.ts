"use server";

import { signInSchema, signUpSchema } from "@/lib/auth/credentials";
import { signIn, signUp } from "@/lib/auth/sign-in-out";
import { publicAction } from "@/lib/actions/safe-action";

export const signUpAction = publicAction("sign-up", signUpSchema, (input, { runtime, headers }) =>
  signUp(runtime.auth, { input, headers }),
);

export const signInAction = publicAction("sign-in", signInSchema, (input, { runtime, headers }) =>
  signIn(runtime.auth, { input, headers }),
);

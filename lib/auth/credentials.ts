import { z } from "zod";
import { refinePlainText } from "@/lib/validation/plain-text";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-policy";

export const MAX_NAME_LENGTH = 60;

export const emailSchema = z
  .string({ error: "Enter your email." })
  .trim()
  .toLowerCase()
  .min(1, "Enter your email.")
  .max(254, "Email addresses are at most 254 characters.")
  .pipe(z.email({ error: "Enter a valid email address, like name@example.com." }));

export const nameSchema = z
  .string({ error: "Tell us your name." })
  .trim()
  .min(1, "Tell us your name.")
  .max(MAX_NAME_LENGTH, `Names can be at most ${MAX_NAME_LENGTH} characters.`)
  .superRefine(refinePlainText("Names"));

export const passwordSchema = z
  .string({ error: "Choose a password." })
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters.`)
  .refine((password) => /[a-z]/i.test(password) && /[^a-z]/i.test(password), "Too weak: mix letters with at least one number or symbol.");

/** The rules of an account, whatever the entry point: the form, or better-auth's HTTP API. */
export const signUpSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  /** An invite link's secret (lib/people/invites): checked, with its own words, when the account is made. */
  invite: z.string().max(200, "This invite link is not valid: check you copied all of it.").optional(),
});

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(MAX_PASSWORD_LENGTH, "Wrong email or password."),
});

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;

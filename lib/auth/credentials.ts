import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./create-auth";

const email = z.string().trim().toLowerCase().pipe(z.email({ error: "Enter a valid email address, like name@example.com." }));

export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Tell us your name.").max(80, "Names can be at most 80 characters."),
  email,
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
    .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters.`)
    .refine(
      (password) => /[a-z]/i.test(password) && /[^a-z]/i.test(password),
      "Too weak: mix letters with at least one number or symbol.",
    ),
});

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Enter your email."),
  password: z.string().min(1, "Enter your password."),
});

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;

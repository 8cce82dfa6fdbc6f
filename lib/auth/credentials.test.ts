import { describe, expect, it } from "vitest";
import { signUpSchema } from "./credentials";

const fieldErrors = (input: unknown) => {
  const result = signUpSchema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path[0], issue.message]));
};

describe("sign-up input", () => {
  it("accepts a name, a valid email and a password with letters and a digit, normalising the email", () => {
    expect(signUpSchema.parse({ name: " Ada ", email: " Ada@Example.COM ", password: "lovelace-1815" })).toEqual({
      name: "Ada",
      email: "ada@example.com",
      password: "lovelace-1815",
    });
  });

  it.each([
    ["too short", "abc1", /at least 8 characters/],
    ["only letters", "abcdefghij", /Too weak/],
    ["only digits", "1234567890", /Too weak/],
  ])("refuses a weak password (%s) with a field error", (_case, password, message) => {
    expect(fieldErrors({ name: "A", email: "a@example.com", password }).password).toMatch(message);
  });

  it("refuses a malformed email and an empty name", () => {
    const errors = fieldErrors({ name: "  ", email: "not-an-email", password: "password-1" });
    expect(errors.email).toMatch(/valid email/);
    expect(errors.name).toMatch(/name/);
  });
});

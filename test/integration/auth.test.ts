import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpSchema } from "@/lib/auth/credentials";
import { signIn, signUp, WRONG_CREDENTIALS } from "@/lib/auth/sign-in-out";
import { getSessionUser } from "@/lib/auth/session-user";
import { AppError } from "@/lib/errors/app-error";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp } from "../support/test-app";

describe("accounts", () => {
  let app: TestApp;
  const headers = () => new Headers({ origin: app.url, host: new URL(app.url).host });

  beforeAll(async () => {
    app = await TestApp.start();
    await createProjectWithChannel(app.prisma);
  });
  afterAll(() => app.close());

  it("signs a new user up as a member of the default project and its channels", async () => {
    const input = signUpSchema.parse({ name: "Ada", email: "Ada@Example.test", password: "analytical-1" });
    const { userId } = await signUp(app.runtime.auth, { input, headers: headers() });

    const user = await app.prisma.user.findUniqueOrThrow({ where: { id: userId }, include: { memberships: true, participations: true } });
    expect(user).toMatchObject({ email: "ada@example.test", role: "member" });
    expect(user.memberships).toHaveLength(1);
    expect(user.participations).toHaveLength(1);
    const account = await app.prisma.account.findFirstOrThrow({ where: { userId } });
    expect(account.password).not.toContain("analytical-1");
  });

  it("refuses a second account with the same email with a field error", async () => {
    const input = signUpSchema.parse({ name: "Twin", email: "twin@example.test", password: "password-1" });
    await signUp(app.runtime.auth, { input, headers: headers() });

    const again = signUp(app.runtime.auth, { input: { ...input, name: "Other" }, headers: headers() });

    await expect(again).rejects.toMatchObject({ code: "conflict", fields: { email: expect.stringMatching(/already exists/) } });
  });

  it("signs in with the right password and gives the same error for a wrong password or an unknown email", async () => {
    const input = signUpSchema.parse({ name: "Grace", email: "grace@example.test", password: "cobol-1959" });
    await signUp(app.runtime.auth, { input, headers: headers() });

    await expect(signIn(app.runtime.auth, { input: { email: input.email, password: "cobol-1959" }, headers: headers() })).resolves.toHaveProperty("userId");
    const wrongPassword = await signIn(app.runtime.auth, { input: { email: input.email, password: "nope-nope-1" }, headers: headers() }).catch((error: AppError) => error);
    const unknownEmail = await signIn(app.runtime.auth, { input: { email: "nobody@example.test", password: "cobol-1959" }, headers: headers() }).catch((error: AppError) => error);

    expect(wrongPassword).toBeInstanceOf(AppError);
    expect(wrongPassword).toMatchObject({ code: "unauthorized", message: WRONG_CREDENTIALS });
    expect(unknownEmail).toMatchObject({ code: "unauthorized", message: WRONG_CREDENTIALS });
  });

  it("resolves a session cookie to the user with their role", async () => {
    const user = await app.signUp("Cookie Monster");
    await app.prisma.user.update({ where: { id: user.id }, data: { role: "debug" } });

    const sessionUser = await getSessionUser(app.runtime.auth, new Headers({ cookie: user.cookie }));

    expect(sessionUser).toEqual({ id: user.id, name: "Cookie Monster", email: user.email, role: "debug" });
    expect(await getSessionUser(app.runtime.auth, new Headers({ cookie: "better-auth.session_token=forged" }))).toBeNull();
  });
});

import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { AppError } from "@/lib/errors/app-error";
import { readInvite } from "@/lib/people/invites";
import { INVITE_ONLY } from "@/lib/people/sign-up-gate";
import { getRuntime } from "@/lib/runtime/runtime";
import { getCurrentUser } from "@/lib/session/current-user";
import { signUpFormAction } from "../actions";

type Offer = { role: string; expiresAt: string } | { refused: string } | null;

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ invite?: string | string[] }> }) {
  if (await getCurrentUser()) redirect("/");
  const { invite } = await searchParams;
  const token = typeof invite === "string" ? invite : undefined;
  const { db, env } = await getRuntime();
  const offer: Offer = token ? await readInvite(db.prisma, token).catch((error: unknown) => refusedOffer(error)) : null;
  const refused = offer && "refused" in offer ? offer.refused : null;
  if (env.SIGN_UP === "invite" && (!offer || refused)) return <InviteNeeded reason={refused ?? INVITE_ONLY} />;
  const notice = offer && "role" in offer ? (
    <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800 dark:bg-brand-900 dark:text-brand-100">
      You are invited to join as <strong>{offer.role}</strong>. The link works until {untilText(offer.expiresAt)}.
    </p>
  ) : refused ? (
    <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">{refused} You can still create an account as a member.</p>
  ) : undefined;
  return <AuthForm mode="sign-up" action={signUpFormAction} invite={offer && "role" in offer ? token : undefined} notice={notice} />;
}

/** Said before anyone is signed in, so without their time preferences: in UTC, saying so. */
function untilText(iso: string): string {
  return `${new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
}

function refusedOffer(error: unknown): Offer {
  if (error instanceof AppError) return { refused: error.message };
  throw error;
}

function InviteNeeded({ reason }: { reason: string }) {
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Create your account</h1>
      <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
        {reason}
      </p>
      <p className="text-center text-sm text-muted">
        Already have an account?{" "}
        <Link href="/sign-in" className="font-semibold text-link hover:underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}

import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { getCurrentUser } from "@/lib/session/current-user";
import { signInFormAction } from "../actions";

export default async function SignInPage() {
  if (await getCurrentUser()) redirect("/");
  return <AuthForm mode="sign-in" action={signInFormAction} />;
}

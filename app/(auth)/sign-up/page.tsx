import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { getCurrentUser } from "@/lib/session/current-user";
import { signUpFormAction } from "../actions";

export default async function SignUpPage() {
  if (await getCurrentUser()) redirect("/");
  return <AuthForm mode="sign-up" action={signUpFormAction} />;
}

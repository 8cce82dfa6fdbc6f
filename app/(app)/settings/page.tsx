import type { Metadata } from "next";
import { ApiTokens } from "@/components/settings/api-tokens";
import { DeleteAccountForm } from "@/components/settings/delete-account-form";
import { DesktopNotifications } from "@/components/settings/desktop-notifications";
import { PasswordForm } from "@/components/settings/password-form";
import { ProfileForm } from "@/components/settings/profile-form";
import { readProfile } from "@/lib/account/update-profile";
import { listApiTokens } from "@/lib/api-tokens/list-api-tokens";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { changePasswordAction, createApiTokenAction, deleteAccountAction, revokeApiTokenAction, updateProfileAction } from "./actions";

export const metadata: Metadata = { title: "Settings · Chorus" };

export default async function SettingsPage() {
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  const [profile, tokens] = await Promise.all([readProfile(db.prisma, { userId: user.id }), listApiTokens(db.prisma, { userId: user.id })]);
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-3xl space-y-8 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Settings</h1>
        <ProfileForm profile={profile} save={updateProfileAction} />
        <DesktopNotifications />
        <PasswordForm change={changePasswordAction} />
        <ApiTokens tokens={tokens} create={createApiTokenAction} revoke={revokeApiTokenAction} />
        <DeleteAccountForm remove={deleteAccountAction} />
      </div>
    </div>
  );
}

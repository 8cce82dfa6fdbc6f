import type { Metadata } from "next";
import { ApiTokens } from "@/components/settings/api-tokens";
import { AvatarSettings } from "@/components/settings/avatar-settings";
import { DeleteAccountForm } from "@/components/settings/delete-account-form";
import { DesktopNotifications } from "@/components/settings/desktop-notifications";
import { PasswordForm } from "@/components/settings/password-form";
import { ProfileForm } from "@/components/settings/profile-form";
import { listApiTokens } from "@/lib/api-tokens/list-api-tokens";
import { getRuntime } from "@/lib/runtime/runtime";
import { getCurrentAvatar, getCurrentPreferences, requireCurrentUser } from "@/lib/session/current-user";
import { changePasswordAction, createApiTokenAction, deleteAccountAction, revokeApiTokenAction, updateAvatarColorAction, updateProfileAction } from "./actions";

export const metadata: Metadata = { title: "Settings · Chorus" };

export default async function SettingsPage() {
  const user = await requireCurrentUser();
  const { db, webPush } = await getRuntime();
  // The session read for this request already holds the name and preferences.
  const [preferences, avatar, tokens] = await Promise.all([getCurrentPreferences(), getCurrentAvatar(), listApiTokens(db.prisma, { userId: user.id })]);
  const profile = { name: user.name, ...preferences };
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-3xl space-y-8 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Settings</h1>
        <ProfileForm profile={profile} save={updateProfileAction} />
        <AvatarSettings person={{ id: user.id, name: user.name, ...avatar }} saveColor={updateAvatarColorAction} />
        <DesktopNotifications pushPublicKey={webPush?.publicKey ?? null} />
        <PasswordForm change={changePasswordAction} />
        <ApiTokens tokens={tokens} create={createApiTokenAction} revoke={revokeApiTokenAction} />
        <DeleteAccountForm remove={deleteAccountAction} />
      </div>
    </div>
  );
}

import { forbidden } from "next/navigation";
import { AdminSubpage } from "@/components/admin/admin-subpage";
import { InviteLinks } from "@/components/admin/invite-links";
import { PeopleList } from "@/components/admin/people-list";
import { listInvites } from "@/lib/people/invites";
import { listPeople } from "@/lib/people/manage-people";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { changeRoleAction, createInviteAction, deactivatePersonAction, reactivatePersonAction, revokeInviteAction } from "./actions";

export default async function PeoplePage() {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db, env } = await getRuntime();
  const [people, invites] = await Promise.all([listPeople(db.prisma), listInvites(db.prisma)]);
  return (
    <AdminSubpage
      crumb="People"
      title="People"
      intro={
        env.SIGN_UP === "invite"
          ? "Everyone with an account. Sign-up here is by invitation: an invite link gives its role to the one account made with it."
          : "Everyone with an account. Anyone who reaches this server may sign up as a member; an invite link gives another role."
      }
    >
      <InviteLinks invites={invites} create={createInviteAction} revoke={revokeInviteAction} />
      <PeopleList people={people} selfId={user.id} changeRole={changeRoleAction} deactivate={deactivatePersonAction} reactivate={reactivatePersonAction} />
    </AdminSubpage>
  );
}

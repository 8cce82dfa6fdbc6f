"use server";

import { adminAction } from "@/lib/actions/safe-action";
import { createInvite, createInviteSchema, revokeInvite, revokeInviteSchema } from "@/lib/people/invites";
import { changeRole, changeRoleSchema, deactivatePerson, personSchema, reactivatePerson } from "@/lib/people/manage-people";

export const changeRoleAction = adminAction("change-role", changeRoleSchema, (input, { runtime }) => changeRole(runtime.db.prisma, input));

export const deactivatePersonAction = adminAction("deactivate-person", personSchema, (input, { runtime, user }) =>
  deactivatePerson({ prisma: runtime.db.prisma, endSession: (sessionId) => runtime.realtime.sessionEnded(sessionId, "signed_out") }, { userId: input.userId, actorId: user.id }),
);

export const reactivatePersonAction = adminAction("reactivate-person", personSchema, (input, { runtime }) => reactivatePerson(runtime.db.prisma, input));

export const createInviteAction = adminAction("create-invite", createInviteSchema, (input, { runtime, user }) => createInvite(runtime.db.prisma, { actorId: user.id, ...input }));

export const revokeInviteAction = adminAction("revoke-invite", revokeInviteSchema, (input, { runtime }) => revokeInvite(runtime.db.prisma, input));

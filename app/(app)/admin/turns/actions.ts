"use server";

import { z } from "zod";
import { adminAction } from "@/lib/actions/safe-action";
import { readTurnLoad } from "@/lib/dispatch/read-turn-load";

/** Polled by the Agent turns page. */
export const readTurnLoadAction = adminAction("read-turn-load", z.unknown(), (_input, { runtime, user }) => readTurnLoad(runtime.db.prisma, { actor: user, env: runtime.env }));

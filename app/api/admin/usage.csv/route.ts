import { errorResponse } from "@/lib/http/json-response";
import { AppError } from "@/lib/errors/app-error";
import { requireApiUser } from "@/lib/session/api-user";
import { readUsage } from "@/lib/usage/read-usage";
import { usageCsv, usageCsvName } from "@/lib/usage/usage-csv";
import { readUsageFilters } from "@/lib/usage/usage-filters";

/** The usage page's table as CSV, with the page's filters (`from`, `to`, `agentId`, `userId`, `groupBy`); admins only. */
export async function GET(request: Request) {
  try {
    const { runtime, user } = await requireApiUser(request);
    const { filters, errors } = readUsageFilters(new URL(request.url).searchParams);
    const refused = Object.entries(errors)[0];
    if (refused) throw new AppError("bad_request", refused[1], errors);
    const report = await readUsage(runtime.db.prisma, { actor: user, filters });
    return new Response(usageCsv(report), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8; header=present",
        "Content-Disposition": `attachment; filename="${usageCsvName(report)}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return errorResponse("usage-csv", error);
  }
}

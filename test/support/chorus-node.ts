import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { openDatabase } from "@/lib/db/open-database";

// One Chorus node without Next's pages: the same runtime, auth API, Socket.IO server and Redis
// adapter as server.ts. The two-node test starts two of these and reads "READY <port>".
const env = readEnv();
const db = await openDatabase(databaseTarget(env));
const { startChorus } = await import("@/lib/server/start-chorus");
const server = await startChorus({ env, db });
console.log(`READY ${server.port}`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));

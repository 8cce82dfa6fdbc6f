import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { openDatabase } from "@/lib/db/open-database";
import { exitOnSignals } from "@/lib/server/exit-on-signals";

// One Chorus node without Next's pages: the same runtime, auth API, Socket.IO server, Redis
// adapter and shutdown as server.ts. Tests and the soak start these and read "READY <port>".
const env = readEnv();
const db = await openDatabase(databaseTarget(env));
const { startChorus } = await import("@/lib/server/start-chorus");
const server = await startChorus({ env, db });
console.log(`READY ${server.port}`);
exitOnSignals(() => server.close());

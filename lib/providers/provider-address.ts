import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AppError } from "@/lib/errors/app-error";

/** Names of cloud metadata services, whatever they resolve to. */
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);

/**
 * Why a provider may not be at this address, or null. Link-local addresses (169.254.0.0/16,
 * fe80::/10) hold the cloud's metadata service, which hands out the machine's credentials to
 * whoever asks; Alibaba's (100.100.100.200) and AWS's IPv6 one (fd00:ec2::254) too. Loopback and
 * private addresses stay allowed: Ollama or vLLM on the same host or network is the common case.
 */
export function addressProblem(ip: string): string | null {
  const address = ip.toLowerCase().replace(/^::ffff:/, "");
  if (isIP(address) === 4) {
    const [a, b] = address.split(".").map(Number);
    if (a === 169 && b === 254) return "a link-local address (169.254.x.x), where cloud metadata services answer";
    if (a === 0) return "an unspecified address (0.x.x.x)";
    if (address === "100.100.100.200") return "a cloud metadata address";
    return null;
  }
  if (/^fe[89ab][0-9a-f]?:/.test(address)) return "a link-local address (fe80::/10), where cloud metadata services answer";
  if (address === "fd00:ec2::254") return "a cloud metadata address";
  if (address === "::") return "an unspecified address (::)";
  return null;
}

/**
 * Refuses a provider URL that is not http(s) or that points (by name, literally, or by what the
 * name resolves to now) at a metadata service. The message names the field's problem in words.
 */
export async function assertProviderAddress(baseUrl: string): Promise<URL> {
  const url = parseProviderUrl(baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_HOSTS.has(host)) throw refused(`${host} is a cloud metadata service, not a model provider.`);
  const addresses = isIP(host) ? [host] : await lookup(host, { all: true }).then(
    (found) => found.map((each) => each.address),
    () => {
      throw refused(`${host} could not be found (DNS). Check the address.`);
    },
  );
  for (const address of addresses) {
    const problem = addressProblem(address);
    if (problem) throw refused(`${host === address ? host : `${host} (${address})`} is ${problem}: refused.`);
  }
  return url;
}

/** The URL, or a refusal naming what is wrong with it: only http and https, no credentials in it. */
export function parseProviderUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw refused("Enter the provider's base URL, like https://api.openai.com/v1.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refused(`Only http and https addresses are allowed, not ${url.protocol.replace(":", "")}.`);
  if (url.username || url.password) throw refused("Put the key in the API key field, not in the address.");
  return url;
}

function refused(message: string): AppError {
  return new AppError("bad_request", message, { baseUrl: message });
}

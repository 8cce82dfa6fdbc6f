import { describe, expect, it } from "vitest";
import { addressProblem, assertProviderAddress, parseProviderUrl } from "./provider-address";

describe("provider addresses", () => {
  it("refuses link-local and metadata addresses, and keeps loopback, private and public ones", () => {
    for (const ip of ["169.254.169.254", "169.254.0.1", "::ffff:169.254.169.254", "fe80::1", "FE80::abcd", "fd00:ec2::254", "100.100.100.200", "0.0.0.0", "::"]) {
      expect(addressProblem(ip), ip).not.toBeNull();
    }
    for (const ip of ["127.0.0.1", "::1", "10.0.0.5", "192.168.1.20", "172.16.0.3", "8.8.8.8", "2001:db8::1", "fd12::1"]) {
      expect(addressProblem(ip), ip).toBeNull();
    }
  });

  it("takes only http(s) URLs without credentials, saying why", () => {
    expect(() => parseProviderUrl("ftp://example.com/v1")).toThrow("Only http and https addresses are allowed, not ftp.");
    expect(() => parseProviderUrl("file:///etc/passwd")).toThrow("Only http and https addresses are allowed, not file.");
    expect(() => parseProviderUrl("not a url")).toThrow(/base URL/);
    expect(() => parseProviderUrl("https://user:secret@example.com/v1")).toThrow(/API key field/);
    expect(parseProviderUrl("http://localhost:11434/v1").host).toBe("localhost:11434");
  });

  it("refuses a metadata host by name, by literal address and in IPv6 brackets", async () => {
    await expect(assertProviderAddress("http://169.254.169.254/latest/meta-data")).rejects.toMatchObject({ fields: { baseUrl: expect.stringMatching(/link-local/) } });
    await expect(assertProviderAddress("http://metadata.google.internal/computeMetadata/v1")).rejects.toThrow(/metadata service/);
    await expect(assertProviderAddress("http://[fe80::1]:8080/v1")).rejects.toThrow(/link-local/);
    await expect(assertProviderAddress("http://127.0.0.1:11434/v1")).resolves.toBeInstanceOf(URL);
    await expect(assertProviderAddress("http://localhost:11434/v1")).resolves.toBeInstanceOf(URL);
  });
});

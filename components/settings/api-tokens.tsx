"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ApiTokenSummary } from "@/lib/api-tokens/list-api-tokens";
import { DATE_AND_TIME, useDateFormat } from "@/components/providers/preferences-provider";
import { CopyOnce } from "@/components/ui/copy-once";
import { ItemList } from "@/components/ui/item-list";
import { UNREACHABLE } from "@/components/ui/unreachable";

type CreateAction = (input: unknown) => Promise<ActionResult<{ token: string; name: string }>>;
type RevokeAction = (input: unknown) => Promise<ActionResult<void>>;

/** Personal API tokens: create (the secret is shown once), list, revoke. */
export function ApiTokens({ tokens, create, revoke }: { tokens: ApiTokenSummary[]; create: CreateAction; revoke: RevokeAction }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const when = useDateFormat(DATE_AND_TIME);
  const formatDate = (iso: string) => when.format(new Date(iso));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const result = await create({ name: new FormData(form).get("name") }).catch(() => UNREACHABLE);
    if ("error" in result) {
      setError(result.error.message);
      nameInput.current?.focus();
      return;
    }
    setError(null);
    setCreated(result.data);
    form.reset();
    router.refresh();
  };

  const revokeToken = async (token: ApiTokenSummary) => {
    const result = await revoke({ tokenId: token.id }).catch(() => UNREACHABLE);
    if ("error" in result) return setError(result.error.message);
    router.refresh();
  };

  return (
    <section aria-labelledby="api-tokens-heading" className="space-y-4">
      <div>
        <h2 id="api-tokens-heading" className="text-lg font-semibold">
          API tokens
        </h2>
        <p className="text-sm text-muted-strong">
          Scripts and bots use a personal token to post and read as you: send it as <code>Authorization: Bearer &lt;token&gt;</code>. Revoke a token
          and it stops working at once.
        </p>
      </div>
      <form onSubmit={(event) => void submit(event)} className="flex flex-wrap items-end gap-2" noValidate>
        <label className="min-w-0 flex-1 text-sm font-medium">
          Token name
          <input
            ref={nameInput}
            name="name"
            maxLength={60}
            required
            placeholder="deploy bot"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "api-token-error" : undefined}
            className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-950"
          />
        </label>
        <button type="submit" className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700">
          Create token
        </button>
      </form>
      {error && (
        <p id="api-token-error" role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {created && <CopyOnce key={created.token} heading={`Copy your new token “${created.name}” now: it will not be shown again.`} label="New API token" value={created.token} />}
      <ItemList items={tokens} label="Your API tokens" empty="No tokens yet." itemLabel={(token) => `Token ${token.name}`} itemClassName="flex flex-wrap items-center gap-x-4 gap-y-1">
        {(token) => (
          <>
            <span className="min-w-0 flex-1">
              <span className="block font-semibold">{token.name}</span>
              <span className="block text-xs text-muted-strong">
                <code>{token.prefix}…</code> · created {formatDate(token.createdAt)} · {token.lastUsedAt ? `last used ${formatDate(token.lastUsedAt)}` : "never used"}
              </span>
            </span>
            {token.revokedAt ? (
              <span className="text-xs font-semibold text-muted-strong">Revoked {formatDate(token.revokedAt)}</span>
            ) : (
              <button type="button" onClick={() => void revokeToken(token)} className="rounded-md px-2 py-1 font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950">
                Revoke<span className="sr-only"> {token.name}</span>
              </button>
            )}
          </>
        )}
      </ItemList>
    </section>
  );
}


/** Tokens as the usage page writes them: 12,345. */
export const tokensText = (tokens: number) => tokens.toLocaleString("en");

const usd = new Intl.NumberFormat("en", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** A cost in dollars, with cents and up to four decimals (a few thousand tokens cost fractions of a cent). */
export const costText = (costUsd: number) => usd.format(costUsd);

/** An agent's price per million tokens, or that it has none. */
export const priceText = (usdPerMillion: number | null) => (usdPerMillion === null ? "not priced" : `${usd.format(usdPerMillion)} per 1M tokens`);

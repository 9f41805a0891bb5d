// Money on the subscriptions page and in the Change Plan dialog: "36.50 USD".
export const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

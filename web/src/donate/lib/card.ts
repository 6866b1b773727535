/** What the tokeniser and the card vault need of a card; the expiry as typed ("MM / YY"). */
export interface CardInput { number: string; cvv: string; expiry: string; holderName: string; idType: string; idNumber: string }

// A transfer between two custody wallets, as the service sends it.
export interface TransferOrder {
  from: string;
  to: string;
  amount: number;
}

export const transferBody = ({ from, to, amount }: TransferOrder) => ({
  walletOriginId: from,
  walletDestinationId: to,
  amount,
});

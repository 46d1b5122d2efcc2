// On-ramps: started for a user, their operations remembered, the instructions handed back.
import { orThrow } from 'ramp-api';
import type { Clients } from '../api/clients.js';
import type { OnRamp } from '../api/types.js';
import type { AuditLog } from '../util/logger.js';
import { onRampRequest } from './onramp-request.js';

export interface OnRampTicket {
  operationId: string;
  status: string;
  amounts: [number, number];
  escalation: string | null;
  pay: string | undefined;
}

export class OnRampService {
  readonly operations = new Map<string, OnRamp['operation']>();

  constructor(
    private readonly clients: Clients,
    private readonly log: AuditLog,
  ) {}

  async start(userId: string, amount: number, phone: string, walletId: string): Promise<OnRampTicket> {
    const { operation, tierEscalation, depositInfo } = await orThrow(
      this.clients.v1.createOnRamp({
        params: { path: { user_id: userId } },
        body: onRampRequest(amount, phone, walletId),
      }),
    );
    this.operations.set(operation.id, operation);
    this.log.info('on-ramp started', { id: operation.id, rate: operation.rate });
    return {
      operationId: operation.id,
      status: operation.status,
      amounts: [operation.amountOrigin, operation.amountDestination],
      escalation: tierEscalation ? tierEscalation.actionType : null,
      pay: depositInfo?.paymentMethod,
    };
  }

  statusOf(operationId: string): string | undefined {
    return this.operations.get(operationId)?.status;
  }
}

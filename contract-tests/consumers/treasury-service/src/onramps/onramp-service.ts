// On-ramps: started for a user, their operations remembered, the instructions handed back.
import { ApiError, orThrow } from 'ramp-api';
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

/** An on-ramp over the user's tier limit: what the service asks of the user first. */
export interface Escalation {
  refused: true;
  action: string;
  message: string;
}

export class OnRampService {
  readonly operations = new Map<string, OnRamp['operation']>();

  constructor(
    private readonly clients: Clients,
    private readonly log: AuditLog,
  ) {}

  async start(userId: string, amount: number, phone: string, walletId: string): Promise<OnRampTicket | Escalation> {
    try {
      return this.ticketOf(
        await orThrow(
          this.clients.v1.createOnRamp({
            params: { path: { user_id: userId } },
            body: onRampRequest(amount, phone, walletId),
          }),
        ),
      );
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 422)) throw e;
      const { tierEscalation } = e.body as { tierEscalation?: OnRamp['tierEscalation'] };
      if (!tierEscalation) throw e;
      return { refused: true, action: tierEscalation.actionType, message: tierEscalation.message };
    }
  }

  private ticketOf({ operation, tierEscalation, depositInfo }: OnRamp): OnRampTicket {
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

// The events the service received, kept in order for the dashboard and the reconciliation job.
export interface InboxEntry {
  event: string;
  key: string;
  summary: string;
}

export class EventInbox {
  readonly entries: InboxEntry[] = [];
  private readonly waiting: ((entry: InboxEntry) => void)[] = [];

  add(entry: InboxEntry): void {
    this.entries.push(entry);
    for (const wake of this.waiting.splice(0)) wake(entry);
  }

  /** The next entry added. */
  next(): Promise<InboxEntry> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  count(event: string): number {
    return this.entries.filter((e) => e.event === event).length;
  }
}

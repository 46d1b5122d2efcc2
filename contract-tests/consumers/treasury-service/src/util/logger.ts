// A structured logger: each entry is a message with its fields, kept in memory and written as one JSON line.
export interface LogEntry {
  level: 'info' | 'warn';
  message: string;
  fields: Record<string, unknown>;
}

export class AuditLog {
  readonly entries: LogEntry[] = [];

  constructor(private readonly write: (line: string) => void = () => {}) {}

  info(message: string, fields: Record<string, unknown> = {}): void {
    this.add({ level: 'info', message, fields });
  }

  warn(message: string, fields: Record<string, unknown> = {}): void {
    this.add({ level: 'warn', message, fields });
  }

  private add(entry: LogEntry): void {
    this.entries.push(entry);
    this.write(JSON.stringify(entry));
  }
}

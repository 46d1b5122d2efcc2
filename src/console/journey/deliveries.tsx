// What the sandbox delivered for the journey's tenant, read through its control API (listEvents,
// listDeliveries) once the run ends, and read again while a delivery is still pending.

import { useEffect, useState } from 'preact/hooks';
import { createSandboxClient } from 'ramp-api';

interface Delivery {
  id: string;
  event: string;
  endpointKind: string;
  url: string;
  status: string;
  attempts: { attempt: number; outcome: string; httpStatus?: number | null }[];
}

interface Seen {
  events: { event: string; id: string }[];
  deliveries: Delivery[];
}

/** The tenant's events and deliveries; read again every half second while one is pending, for up to a minute. */
export function Deliveries({ sandbox, tenantId }: { sandbox: string; tenantId: string }) {
  const [seen, setSeen] = useState<Seen>();
  const [message, setMessage] = useState('');
  useEffect(() => {
    const control = createSandboxClient({ baseUrl: sandbox, retry: false });
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const until = Date.now() + 60_000;
    const read = async () => {
      try {
        const query = { tenant: tenantId };
        const [events, deliveries] = await Promise.all([
          control.listEvents({ params: { query } } as never),
          control.listDeliveries({ params: { query } } as never),
        ]);
        if (stopped) return;
        const next: Seen = {
          events: ((events.data as { events?: Seen['events'] } | undefined)?.events ?? []) as Seen['events'],
          deliveries: ((deliveries.data as { deliveries?: Delivery[] } | undefined)?.deliveries ?? []) as Delivery[],
        };
        setSeen(next);
        if (next.deliveries.some((d) => d.status === 'pending') && Date.now() < until) timer = setTimeout(read, 500);
      } catch (error) {
        if (!stopped) setMessage(`The sandbox's deliveries could not be read: ${(error as Error).message}`);
      }
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sandbox, tenantId]);
  return (
    <section class="rc-deliveries" aria-label="Events delivered">
      <h3>Events and their deliveries</h3>
      {message && <p role="alert">{message}</p>}
      {!seen && !message && <p>Reading the sandbox's deliveries...</p>}
      {seen && (
        <>
          <p>
            {seen.events.length} events for this tenant: {seen.events.map((e) => e.event).join(', ') || 'none'}.
          </p>
          {seen.deliveries.length === 0 ? (
            <p>No delivery: the journey registered no endpoint for these events.</p>
          ) : (
            <table>
              <caption>Deliveries (the sandbox's listDeliveries)</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                </tr>
              </thead>
              <tbody>
                {seen.deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <code>{d.event}</code>
                    </td>
                    <td>
                      {d.endpointKind} <code>{d.url}</code>
                    </td>
                    <td>{d.status}</td>
                    <td>
                      {d.attempts
                        .map((a) => `${a.attempt}: ${a.outcome}${a.httpStatus ? ` (HTTP ${a.httpStatus})` : ''}`)
                        .join(', ') || 'none yet'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

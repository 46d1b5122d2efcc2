// The tenant's credentials, offered to copy into a shell or the TypeScript sample: hidden until asked for, held
// in this tab only (the tenant is in sessionStorage), never in the samples themselves.
import { useState } from 'preact/hooks';
import { CopyBox } from './copy-box.js';
import { type ClientInfo, credentialLines } from './samples.js';

export interface CredentialsOfferProps {
  client: ClientInfo;
  /** The sandbox's address the samples call. */
  baseUrl: string;
  /** The tenant's credentials of this family. */
  credentials: unknown;
}

export function CredentialsOffer({ client, baseUrl, credentials }: CredentialsOfferProps) {
  const [shown, setShown] = useState(false);
  const lines = shown ? credentialLines(client, baseUrl, credentials) : undefined;
  return (
    <section class="rc-credentials" aria-label="The tenant's credentials">
      <button type="button" aria-expanded={shown} onClick={() => setShown(!shown)}>
        {shown ? "Hide the tenant's credentials" : "Show the tenant's credentials, to run the samples"}
      </button>
      {lines && (
        <>
          <p class="rc-note">
            A secret, shown in this tab only: paste it in your own terminal or project, never in a shared place.
          </p>
          <CopyBox title="Shell variables" text={lines.shell} />
          <CopyBox title="TypeScript variables" text={lines.typeScript} />
        </>
      )}
    </section>
  );
}

// The journey console's entry on a journey's page of the documentation site: reads the workflow the page shows
// (a JSON block the site's build writes) and offers one button that opens the console and runs the journey
// against the local sandbox; the console (./panel.tsx, with the validators and the `ramp-api` client), the
// bundles of the APIs the journey calls and the local targets are loaded then. It parses no Arazzo file, having
// none to read in a browser: the build read them with the journeys' one reader and wrote what the journey needs
// into that block in the one model's form (`Library` of src/sandbox/journeys/arazzo.ts).
import { render } from 'preact';
import { useState } from 'preact/hooks';
import type { JourneyConfig } from './config.js';

type Panel = typeof import('./panel.js');

function App({ config }: { config: JourneyConfig }) {
  const [loaded, setLoaded] = useState<{ module: Panel; context: Awaited<ReturnType<Panel['loadJourney']>> }>();
  const [failed, setFailed] = useState('');
  if (loaded) {
    const { JourneyConsole } = loaded.module;
    return <JourneyConsole config={config} {...loaded.context} />;
  }
  return (
    <>
      {failed && (
        <p role="alert" class="rc-failed">
          {failed}
        </p>
      )}
      <button
        type="button"
        class="rc-open rc-open-journey"
        onClick={async () => {
          try {
            const module = await import('./panel.js');
            setLoaded({ module, context: await module.loadJourney(config) });
          } catch (error) {
            setFailed(`The console could not load: ${(error as Error).message}`);
          }
        }}
      >
        Open the journey console
      </button>
    </>
  );
}

function start(): void {
  const element = document.getElementById('ramp-journey-config');
  const host = document.getElementById('ramp-journey');
  if (!element?.textContent || !host) return;
  render(<App config={JSON.parse(element.textContent) as JourneyConfig} />, host);
}

start();

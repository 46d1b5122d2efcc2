// A text to copy (a sample, the lines that set its variables), with a button that copies it.
import { useState } from 'preact/hooks';

export function CopyBox({ title, text }: { title: string; text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <section class="rc-sample" aria-label={title}>
      <h3>{title}</h3>
      <button
        type="button"
        onClick={async () => {
          await navigator.clipboard?.writeText(text).catch(() => undefined);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        }}
      >
        {copied ? 'Copied' : `Copy the ${title}`}
      </button>
      <pre>
        <code>{text}</code>
      </pre>
    </section>
  );
}

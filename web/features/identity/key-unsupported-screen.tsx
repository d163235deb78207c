// In place of every screen when this browser cannot hold the key as a non-extractable
// WebCrypto key (detect-ed25519.ts): said plainly, with what to use instead; no weaker fallback.
import { Notice } from '@web/components/ui/notice';
import { KEY_STORAGE_UNSUPPORTED } from '@web/lib/identity/detect-ed25519';

export function KeyUnsupportedScreen() {
  return (
    <div className="mx-auto mt-8 max-w-xl">
      <Notice tone="error" title="This browser cannot keep your key safely">
        <p>
          Switchboard keeps your operator key inside the browser as a WebCrypto key that no page script can read, not
          even the console's own. This browser has no Ed25519 in WebCrypto, or this page is not on a secure address
          (HTTPS or localhost), so the console stops here rather than keep your key in a readable form.
        </p>
        <p className="mt-2">
          Open Switchboard in a current Chrome or Edge (137 or later), Firefox (129 or later) or Safari (17 or later),
          over HTTPS or on localhost.
        </p>
        <p className="mt-2 text-xs">
          Error code <code className="font-mono">{KEY_STORAGE_UNSUPPORTED}</code>
        </p>
      </Notice>
    </div>
  );
}

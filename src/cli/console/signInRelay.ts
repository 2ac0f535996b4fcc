/**
 * @module {@link SignInRelay}: the OAuth login of a protected server, run in the console's page
 * instead of a browser the console opens itself. The OAuth client's "open this URL" becomes a
 * sign-in link on the page (the person follows it in the browser the console runs in); the
 * redirect back still lands on a one-shot loopback listener (RFC 8252), and the relay says when
 * the sign-in ends, or ends it when the person cancels it on the page.
 */
import type { OpenAuthorizationUrl, RedirectParameters, RedirectReceiver } from '../../http.js';

/** One server's sign-in, between its OAuth client and the page. */
export class SignInRelay {
  /** The authorization URL waiting for the person, while a sign-in runs. */
  url: string | undefined;
  /** Told when `url` changes. */
  onchange: (() => void) | undefined;
  private readonly cancels = new Set<() => void>();

  /** `inner`: where the redirect really lands (a LoopbackRedirectReceiver). */
  constructor(private readonly inner: RedirectReceiver) {}

  /** The OAuth client's `openAuthorizationUrl`: shows the URL on the page. */
  readonly open: OpenAuthorizationUrl = (url) => {
    this.url = url.href;
    this.onchange?.();
  };

  /** The OAuth client's `redirectReceiver`: the inner one, cancellable from the page. */
  readonly receiver: RedirectReceiver = {
    start: () => this.inner.start(),
    close: () => this.inner.close(),
    wait: (signal) => this.wait(signal),
  };

  /** Ends the sign-in that runs (its connection or call fails as cancelled); false when none. */
  cancel(): boolean {
    if (this.cancels.size === 0) return false;
    for (const cancel of [...this.cancels]) cancel();
    return true;
  }

  private async wait(signal: AbortSignal | undefined): Promise<RedirectParameters> {
    const controller = new AbortController();
    const cancel = () => controller.abort(new Error('The sign-in was cancelled in the console'));
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    this.cancels.add(cancel);
    try {
      return await this.inner.wait(controller.signal);
    } finally {
      signal?.removeEventListener('abort', abort);
      this.cancels.delete(cancel);
      this.url = undefined;
      this.onchange?.();
    }
  }
}

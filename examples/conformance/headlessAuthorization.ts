/**
 * The "user" of the conformance suite's authorization scenarios: its test authorization servers
 * answer the authorization request at once with a redirect to the client's redirect URI, so
 * opening the URL is one GET whose `Location` is handed to the redirect receiver, as a browser
 * following it to a loopback listener would.
 */
import type { OpenAuthorizationUrl, RedirectReceiver } from 'toolwire/http';

/** A redirect URI nothing listens on: the redirect is read from the authorization answer. */
const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

/** An opener and a receiver working together without a browser. */
export function headlessAuthorization(): {
  open: OpenAuthorizationUrl;
  receiver: RedirectReceiver;
} {
  let deliver: ((query: URLSearchParams) => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  return {
    open: async (url) => {
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location) {
        fail?.(
          new Error(`The authorization endpoint answered HTTP ${response.status}, no redirect`),
        );
        return;
      }
      deliver?.(new URL(location, url).searchParams);
    },
    receiver: {
      start: async () => REDIRECT_URI,
      wait: (signal) =>
        new Promise<URLSearchParams>((resolve, reject) => {
          deliver = resolve;
          fail = reject;
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
      close: async () => {},
    },
  };
}

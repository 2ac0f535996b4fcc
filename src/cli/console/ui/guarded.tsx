/**
 * @module A part of the page that fails to render (something a server sent that no check
 * foresaw) shows what failed in its place, and the rest of the page goes on working. A question
 * that cannot be shown can still be answered: `giveUp` names the answer that refuses it.
 */
import type { ComponentChildren } from 'preact';
import { useErrorBoundary } from 'preact/hooks';
import { visible } from './visibleText.js';

export function Guarded(props: {
  what: string;
  children: ComponentChildren;
  giveUp?: { label: string; run: () => void };
}) {
  const [error, retry] = useErrorBoundary();
  if (!error) return <>{props.children}</>;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div class="guarded" role="alert">
      <span class="badge error">
        {props.what} could not be shown: {visible(message)}
      </span>{' '}
      <button onClick={retry}>Try again</button>
      {props.giveUp ? (
        <button class="danger" onClick={props.giveUp.run}>
          {props.giveUp.label}
        </button>
      ) : null}
    </div>
  );
}

/**
 * @module The keyboard of a modal dialog. Escape answers the dialog wherever the focus is: a key
 * pressed as the dialog appears, before the focus moved into it, or after a click outside its
 * buttons, still counts. Both the listener and the first focus are set in a layout effect, in the
 * same task as the render that shows the dialog, so no key and no click can come between the
 * dialog appearing and the dialog owning the keyboard (a plain effect runs after the paint, and
 * an Escape pressed in that gap went to the page, which ignored it).
 */
import { useLayoutEffect } from 'preact/hooks';

/**
 * Calls `onEscape` for an Escape key anywhere in the page while the dialog is shown, and moves
 * the focus to `first` (when given) as it appears. `key` names what the dialog asks about: a new
 * question focuses again.
 */
export function useDialogKeys(
  key: string,
  onEscape: () => void,
  first?: { readonly current: HTMLElement | null },
): void {
  useLayoutEffect(() => {
    first?.current?.focus();
    const listener = (event: KeyboardEvent) => {
      // An Escape that ends an input method's composition (typing in Chinese or Japanese in the
      // reply field) is the input method's, not an answer.
      if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return;
      event.preventDefault();
      onEscape();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
    // Keyed by the dialog's question, not by the callback (a new closure at each render).
  }, [key]);
}

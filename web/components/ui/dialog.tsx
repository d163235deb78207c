// Modal dialog on Radix: focus is trapped inside, Escape closes it, focus returns to the
// control that had it when the dialog opened (or to `returnFocusTo`), and the title and
// description are wired to the dialog for readers.
import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode, type RefObject } from 'react';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Where focus goes on close, when not back to the control that opened the dialog. */
  returnFocusTo?: RefObject<HTMLElement | null>;
  /** `wide` for content that needs room, such as raw JSON. */
  size?: 'normal' | 'wide';
}

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  returnFocusTo,
  size = 'normal',
}: DialogProps) {
  // These dialogs are opened from state, without a Radix Trigger, so Radix has no control to
  // return focus to: remember what had focus when the dialog opened.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-950/40 backdrop-blur-[1px] dark:bg-black/60" />
        <RadixDialog.Content
          className={`fixed left-1/2 top-[12vh] z-50 max-h-[80vh] ${size === 'wide' ? 'w-[min(48rem,calc(100vw-2rem))]' : 'w-[min(28rem,calc(100vw-2rem))]'} -translate-x-1/2 overflow-y-auto rounded-xl border border-slate-200 bg-white p-5 text-slate-900 shadow-xl dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100`}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={() => {
            opener.current =
              document.activeElement instanceof HTMLElement && document.activeElement !== document.body
                ? document.activeElement
                : null;
          }}
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo?.current ?? (opener.current?.isConnected ? opener.current : null);
            opener.current = null;
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
        >
          <RadixDialog.Title className="pr-8 text-base font-semibold">{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {description}
            </RadixDialog.Description>
          ) : null}
          <div className="mt-4">{children}</div>
          {/* Last in order, so opening the dialog focuses its first field rather than "close". */}
          <RadixDialog.Close
            className="absolute right-3 top-3 rounded-md px-2 py-1 text-sm text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:hover:bg-slate-800 dark:hover:text-white"
            aria-label="Close"
          >
            ✕
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

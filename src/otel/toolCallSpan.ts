/**
 * @module The `tools/call` span of a call the person decides about: started when `callTool`
 * starts the call, before anything is asked, so the question and the decision are its events;
 * taken over by the call's first request, which sends it as its own (the server's span is its
 * child) and ends it; ended here when no request went (the call was denied, or cancelled while
 * the person was asked).
 */
import type { Context, Span } from '@opentelemetry/api';
import type { ApprovalStep } from '../client/approval/steps.js';
import type { ToolCallScope } from '../client/instrumentation.js';
import { askedAttributes, APPROVAL, decidedAttributes } from './approvalEvents.js';
import { clientErrorOutcome, recordOutcome, SUCCESS } from './outcome.js';

/** One call's span, until a request takes it or the call ends without one. */
export class ToolCallSpan implements ToolCallScope {
  private taken = false;

  constructor(
    readonly span: Span,
    /** The context the call started in: the parent of the span. */
    readonly parent: Context,
    /** The longest diff recorded. */
    private readonly maxRecordedLength: number,
  ) {}

  approval(step: ApprovalStep): void {
    if (this.taken) return;
    if (step.step === 'asked')
      this.span.addEvent(APPROVAL.asked, askedAttributes(step, this.maxRecordedLength));
    else this.span.addEvent(APPROVAL.decided, decidedAttributes(step));
  }

  /** For the call's first request: the span to send it with (once; then the request ends it). */
  take(): { span: Span; parent: Context } | undefined {
    if (this.taken) return undefined;
    this.taken = true;
    return { span: this.span, parent: this.parent };
  }

  end(error?: unknown): void {
    if (this.taken) return;
    this.taken = true;
    // Never sent: no request id, no point in the histogram of requests sent.
    recordOutcome(error === undefined ? SUCCESS : clientErrorOutcome(error), this.span, {});
    this.span.end();
  }
}

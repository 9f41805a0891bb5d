import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BULK_MESSAGES, BULK_POLL_INTERVAL_MS } from '../../src/domain/bulk';
import { csvProblem } from '../../src/machines/bulk-action';
import { FALLBACK_LOAD_ERROR } from '../../src/machines/resource';
import {
  ASSIGN_CSV,
  assignPreview,
  doneOperation,
  halfwayOperation,
  hopelessPreview,
  NO_LINE_CSV,
  OPEN_QUOTE_CSV,
  OPERATION_ID,
  OTHER_OPERATION_ID,
  started,
  startBulkAction,
  startedOperation,
} from '../fixtures/bulk';
import { ok, refused } from './scripted-actors';

describe('the problem shown under the CSV box', () => {
  it('says nothing while the box is blank, and nothing for a file that can be read', () => {
    expect(csvProblem('assign', '')).toBeNull();
    expect(csvProblem('assign', '  \n ')).toBeNull();
    expect(csvProblem('assign', ASSIGN_CSV)).toBeNull();
  });

  it("names what makes the file unreadable for the chosen action, in the server's reader's words", () => {
    expect(csvProblem('assign', OPEN_QUOTE_CSV)).toBe(BULK_MESSAGES.unclosedQuote(2));
    expect(csvProblem('assign', NO_LINE_CSV)).toBe(BULK_MESSAGES.unknownColumn('reason'));
    expect(csvProblem('block', ASSIGN_CSV)).toBe(BULK_MESSAGES.unknownColumn('service_line'));
    expect(csvProblem('assign', 'customer,service_line\n')).toBe(BULK_MESSAGES.empty);
  });
});

describe('bulk action machine', () => {
  it('opens on the editor, and previews only a file that can be read for the chosen action', () => {
    const { actor, called } = startBulkAction();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().can({ type: 'user.preview' })).toBe(false);
    actor.send({ type: 'user.csv', text: ASSIGN_CSV });
    actor.send({ type: 'user.kind', kind: 'block' });
    expect(actor.getSnapshot().can({ type: 'user.preview' })).toBe(false);
    actor.send({ type: 'user.preview' });
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'user.kind', kind: 'assign' });
    actor.send({ type: 'user.preview' });
    expect(actor.getSnapshot().value).toBe('previewing');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(called('previewBulk').map((call) => call.input)).toEqual([{ kind: 'assign', csv: ASSIGN_CSV }]);
  });

  it('keeps the name of an uploaded file until the text is edited by hand', () => {
    const { actor } = startBulkAction();
    actor.send({ type: 'user.file', name: 'lines.csv', text: ASSIGN_CSV });
    expect(actor.getSnapshot().context).toMatchObject({ csv: ASSIGN_CSV, fileName: 'lines.csv' });
    actor.send({ type: 'user.csv', text: `${ASSIGN_CSV}\n` });
    expect(actor.getSnapshot().context).toMatchObject({ csv: `${ASSIGN_CSV}\n`, fileName: null });
  });

  it('previews, runs the ready rows, follows the job every poll interval and ends on its results', async () => {
    const { actor, clock, called, publishOperation, notifyStarted, notifyFinished } = startBulkAction({ load: [ok(halfwayOperation), ok(doneOperation)] });
    actor.send({ type: 'user.csv', text: ASSIGN_CSV });
    actor.send({ type: 'user.preview' });
    const previewed = await waitFor(actor, (s) => s.matches('previewed'));
    expect(previewed.context.preview).toEqual(assignPreview);
    expect(previewed.can({ type: 'user.run' })).toBe(true);
    actor.send({ type: 'user.run' });
    const running = await waitFor(actor, (s) => s.matches({ running: 'waiting' }));
    expect(running.context.operation).toEqual(startedOperation);
    expect(publishOperation).toHaveBeenCalledExactlyOnceWith(OPERATION_ID);
    expect(notifyStarted).toHaveBeenCalledExactlyOnceWith('Bulk action started: 2 rows');
    expect(called('startBulk').map((call) => call.input)).toEqual([{ kind: 'assign', csv: ASSIGN_CSV }]);
    // Nothing is read before the interval has passed.
    clock.increment(BULK_POLL_INTERVAL_MS - 1);
    expect(called('loadBulkOperation')).toHaveLength(0);
    clock.increment(1);
    const halfway = await waitFor(actor, (s) => s.matches({ running: 'waiting' }) && s.context.operation?.done === 2);
    expect(halfway.context.operation).toEqual(halfwayOperation);
    expect(notifyFinished).not.toHaveBeenCalled();
    clock.increment(BULK_POLL_INTERVAL_MS);
    const finished = await waitFor(actor, (s) => s.matches('finished'));
    expect(finished.context.operation).toEqual(doneOperation);
    expect(called('loadBulkOperation').map((call) => call.input)).toEqual([OPERATION_ID, OPERATION_ID]);
    expect(notifyFinished).toHaveBeenCalledExactlyOnceWith(doneOperation);
    // No more polling once done.
    clock.increment(BULK_POLL_INTERVAL_MS * 5);
    expect(called('loadBulkOperation')).toHaveLength(2);
  });

  it('will not run a preview in which no row can run; Edit goes back with the CSV kept', async () => {
    const { actor, called } = startBulkAction({ preview: [ok(hopelessPreview)] });
    actor.send({ type: 'user.csv', text: ASSIGN_CSV });
    actor.send({ type: 'user.preview' });
    await waitFor(actor, (s) => s.matches('previewed'));
    expect(actor.getSnapshot().can({ type: 'user.run' })).toBe(false);
    actor.send({ type: 'user.run' });
    expect(actor.getSnapshot().value).toBe('previewed');
    expect(called('startBulk')).toHaveLength(0);
    actor.send({ type: 'user.edit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ csv: ASSIGN_CSV, preview: null });
  });

  it("shows a refused preview's words, tries again, or goes back to the editor", async () => {
    const { actor, called } = startBulkAction({ preview: [refused(BULK_MESSAGES.missingColumn('customer')), new Error('socket hang up'), ok(assignPreview)] });
    actor.send({ type: 'user.csv', text: ASSIGN_CSV });
    actor.send({ type: 'user.preview' });
    expect((await waitFor(actor, (s) => s.matches('previewFailed'))).context.failure).toBe(BULK_MESSAGES.missingColumn('customer'));
    actor.send({ type: 'user.retry' });
    expect((await waitFor(actor, (s) => s.matches('previewFailed') && s.context.failure === FALLBACK_LOAD_ERROR)).context.failure).toBe(FALLBACK_LOAD_ERROR);
    actor.send({ type: 'user.edit' });
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'user.preview' });
    await waitFor(actor, (s) => s.matches('previewed'));
    expect(actor.getSnapshot().context.failure).toBeNull();
    expect(called('previewBulk')).toHaveLength(3);
  });

  it("shows a refused start's words and goes back to the editor; nothing is published", async () => {
    const { actor, publishOperation, notifyStarted } = startBulkAction({ start: [refused(BULK_MESSAGES.nothingToRun)] });
    actor.send({ type: 'user.csv', text: ASSIGN_CSV });
    actor.send({ type: 'user.preview' });
    await waitFor(actor, (s) => s.matches('previewed'));
    actor.send({ type: 'user.run' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect((await waitFor(actor, (s) => s.matches('startFailed'))).context.failure).toBe(BULK_MESSAGES.nothingToRun);
    expect(publishOperation).not.toHaveBeenCalled();
    expect(notifyStarted).not.toHaveBeenCalled();
    actor.send({ type: 'user.edit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ csv: ASSIGN_CSV, preview: null, failure: BULK_MESSAGES.nothingToRun });
  });

  it('goes straight to the results of a run that ended before the start was answered', async () => {
    const { actor, called, notifyFinished } = startBulkAction({ start: [started(doneOperation)] });
    actor.send({ type: 'user.csv', text: ASSIGN_CSV });
    actor.send({ type: 'user.preview' });
    await waitFor(actor, (s) => s.matches('previewed'));
    actor.send({ type: 'user.run' });
    await waitFor(actor, (s) => s.matches('finished'));
    expect(notifyFinished).toHaveBeenCalledExactlyOnceWith(doneOperation);
    expect(called('loadBulkOperation')).toHaveLength(0);
  });

  it('opens the operation a link names: still running, the page follows it; done, its results', async () => {
    const following = startBulkAction({ load: [ok(halfwayOperation), ok(doneOperation)] }, { operationId: OPERATION_ID });
    expect(following.actor.getSnapshot().value).toBe('opening');
    await waitFor(following.actor, (s) => s.matches({ running: 'waiting' }));
    following.clock.increment(BULK_POLL_INTERVAL_MS);
    await waitFor(following.actor, (s) => s.matches('finished'));
    expect(following.notifyFinished).toHaveBeenCalledOnce();
    // Opening what the address already names publishes nothing.
    expect(following.publishOperation).not.toHaveBeenCalled();

    const done = startBulkAction({ load: [ok(doneOperation)] }, { operationId: OPERATION_ID });
    await waitFor(done.actor, (s) => s.matches('finished'));
    // An operation that was already done when opened is not announced as finishing.
    expect(done.notifyFinished).not.toHaveBeenCalled();
  });

  it('a failed read says why; Try again reads it again, New bulk action empties the editor and the address', async () => {
    const { actor, clock, called, publishOperation } = startBulkAction({ load: [refused(BULK_MESSAGES.notFound), ok(halfwayOperation), new Error('socket hang up')] }, { operationId: OPERATION_ID, kind: 'extend' });
    expect((await waitFor(actor, (s) => s.matches('loadFailed'))).context.failure).toBe(BULK_MESSAGES.notFound);
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches({ running: 'waiting' }));
    // A poll that gets no answer stops following, keeping the last reading on screen.
    clock.increment(BULK_POLL_INTERVAL_MS);
    const failed = await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(failed.context).toMatchObject({ failure: FALLBACK_LOAD_ERROR, operation: halfwayOperation });
    expect(called('loadBulkOperation')).toHaveLength(3);
    actor.send({ type: 'user.reset' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toEqual({ kind: 'extend', csv: '', fileName: null, preview: null, operationId: null, operation: null, failure: null });
    expect(publishOperation).toHaveBeenCalledExactlyOnceWith(null);
  });

  it('opens a recent operation from the editor, the preview or a running one, but not while a start is answered', async () => {
    const { actor, called, publishOperation } = startBulkAction({ start: ['hang'], load: [ok(doneOperation)] });
    actor.send({ type: 'user.open', id: OTHER_OPERATION_ID });
    await waitFor(actor, (s) => s.matches('finished'));
    expect(publishOperation).toHaveBeenLastCalledWith(OTHER_OPERATION_ID);
    actor.send({ type: 'user.reset' });
    actor.send({ type: 'user.csv', text: ASSIGN_CSV });
    actor.send({ type: 'user.preview' });
    await waitFor(actor, (s) => s.matches('previewed'));
    actor.send({ type: 'user.run' });
    expect(actor.getSnapshot().value).toBe('starting');
    expect(actor.getSnapshot().can({ type: 'user.open', id: OTHER_OPERATION_ID })).toBe(false);
    actor.send({ type: 'user.open', id: OTHER_OPERATION_ID });
    expect(actor.getSnapshot().value).toBe('starting');
    expect(called('loadBulkOperation')).toHaveLength(1);
    expect(called('startBulk')[0]!.signal.aborted).toBe(false);
  });

  it('leaving a running operation for a new one stops reading it', async () => {
    const { actor, clock, called } = startBulkAction({ load: [ok(halfwayOperation), 'hang'] }, { operationId: OPERATION_ID });
    await waitFor(actor, (s) => s.matches({ running: 'waiting' }));
    clock.increment(BULK_POLL_INTERVAL_MS);
    await waitFor(actor, () => called('loadBulkOperation').length === 2);
    actor.send({ type: 'user.reset' });
    expect(called('loadBulkOperation')[1]!.signal.aborted).toBe(true);
    clock.increment(BULK_POLL_INTERVAL_MS * 3);
    expect(called('loadBulkOperation')).toHaveLength(2);
    expect(actor.getSnapshot().value).toBe('editing');
  });
});

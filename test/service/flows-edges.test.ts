/**
 * The long and large operations against scripted answers the emulator never gives: a failed or odd clone, a
 * cancelled poll, a 207 that does not match, delta pages of the wrong shape, links that must restart a round.
 */
import { describe, expect, it } from 'vitest';
import { cloneTeam, operationUrl, removeTeamMembers, startTeamClone, syncMessages } from '../../src/service/flows.js';
import { scripted, serviceClient } from './scripted.js';

const accepted =
  (location = '/teams(t)/operations(op)') =>
  () => ({
    status: 202,
    headers: { location, 'content-type': 'text/plain' },
  });
const operation =
  (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  () => ({
    status: 200,
    headers,
    body: { id: 'op', ...body },
  });

describe('team clone, scripted', () => {
  it('reports a failed clone with the service’s error, and polls Retry-After apart', async () => {
    const server = await scripted([
      accepted(),
      operation({ status: 'running' }, { 'retry-after': '0.01' }),
      operation({ status: 'failed', error: { code: 'Conflict', message: 'name taken' } }),
    ]);
    const result = await cloneTeam(
      serviceClient(server.url),
      't',
      { displayName: 'x', partsToClone: 'apps' },
      { intervalMs: 60_000 },
    );
    expect(result).toEqual({
      status: 'failed',
      error: { code: 'Conflict', message: 'name taken' },
      operationUrl: `${server.url}/v1.0/teams(t)/operations(op)`,
      polls: 2,
      operation: expect.objectContaining({ status: 'failed' }),
    });
    expect(server.seen.map((s) => s.url)).toEqual([
      '/v1.0/teams/t/clone',
      '/v1.0/teams(t)/operations(op)',
      '/v1.0/teams(t)/operations(op)',
    ]);
    const bare = await scripted([accepted(), operation({ status: 'failed', error: null })]);
    expect(
      (await cloneTeam(serviceClient(bare.url), 't', { displayName: 'x', partsToClone: 'apps' })).error,
    ).toBeUndefined();
  });

  it('refuses an answer without a Location, an operation of the wrong shape or status, and gives up at its deadline', async () => {
    const body = { displayName: 'x', partsToClone: 'apps' };
    const noLocation = await scripted([() => ({ status: 202 })]);
    await expect(startTeamClone(serviceClient(noLocation.url), 't', body)).rejects.toThrow(
      'The clone was accepted without a Location to poll',
    );
    const shape = await scripted([accepted(), () => ({ status: 200, body: { id: 'op' } })]);
    await expect(cloneTeam(serviceClient(shape.url), 't', body)).rejects.toMatchObject({
      code: 'E_RESPONSE_SHAPE',
      message: expect.stringMatching(/^The clone operation: /),
    });
    // The spec's States table names running, succeeded and failed; the real service says notStarted or inProgress
    // for running (polled as running), and nothing else.
    for (const status of ['paused', 'invalid', 'Running']) {
      const odd = await scripted([accepted(), operation({ status })]);
      await expect(cloneTeam(serviceClient(odd.url), 't', body)).rejects.toMatchObject({
        code: 'E_RESPONSE_SHAPE',
        message: expect.stringMatching(/^The clone operation: .*status/),
      });
    }
    for (const status of ['notStarted', 'inProgress']) {
      const real = await scripted([
        accepted(),
        operation({ status }, { 'retry-after': '0.01' }),
        operation({ status: 'succeeded', targetResourceId: 'new-team' }),
      ]);
      await expect(cloneTeam(serviceClient(real.url), 't', body)).resolves.toMatchObject({
        status: 'succeeded',
        teamId: 'new-team',
        polls: 2,
      });
    }
    const slow = await scripted([accepted(), operation({ status: 'running' })]);
    await expect(
      cloneTeam(serviceClient(slow.url), 't', body, { intervalMs: 20, deadlineMs: 50 }),
    ).rejects.toMatchObject({
      code: 'E_TIMEOUT',
      message: expect.stringMatching(/^The clone was still running after \d+ ms \(\d+ polls\)$/),
    });
    // A success without the new team's id is not a success yet.
    const noTarget = await scripted([accepted(), operation({ status: 'succeeded' })]);
    await expect(cloneTeam(serviceClient(noTarget.url), 't', body)).rejects.toThrow(/unexpected status "succeeded"/);
  });

  it('returns when cancelled between polls, not at the next one', async () => {
    const server = await scripted([accepted(), operation({ status: 'running' })]);
    const controller = new AbortController();
    const clone = await startTeamClone(serviceClient(server.url), 't', { displayName: 'x', partsToClone: 'apps' });
    setTimeout(() => controller.abort(), 30);
    await expect(clone.wait({ intervalMs: 10_000, signal: controller.signal })).rejects.toMatchObject({
      code: 'E_ABORTED',
    });
    // A wait that ignored the signal would take 10–30 s: this test's own timeout, 15 s, catches it.
  }, 15_000);

  it('resolves the Location under {base_url}/v1.0, however the service writes it', () => {
    expect(operationUrl('http://h', '/teams(a)/operations(b)')).toBe('http://h/v1.0/teams(a)/operations(b)');
    expect(operationUrl('http://h', 'teams(a)/operations(b)')).toBe('http://h/v1.0/teams(a)/operations(b)');
    expect(operationUrl('http://h', '/v1.0/teams(a)/operations(b)')).toBe('http://h/v1.0/teams(a)/operations(b)');
    expect(operationUrl('http://h', 'https://other/x')).toBe('https://other/x');
    expect(operationUrl('http://h', 'HTTP://OTHER/x')).toBe('HTTP://OTHER/x');
  });
});

describe('bulk removal, scripted', () => {
  it('reads each member’s error from a 207, and refuses a 207 whose results do not match the members', async () => {
    const server = await scripted([
      () => ({
        status: 207,
        body: {
          value: [
            { userId: 'u1', error: null },
            { userId: 'u2', error: { code: 'NotFound', message: 'gone' } },
            { error: {} },
          ],
        },
      }),
    ]);
    expect(await removeTeamMembers(serviceClient(server.url), 't', ['a', 'b', 'c'])).toEqual([
      { user: 'a', userId: 'u1', error: null },
      { user: 'b', userId: 'u2', error: { code: 'NotFound', message: 'gone' } },
      { user: 'c', error: { code: '', message: '' } },
    ]);
    const short = await scripted([() => ({ status: 207, body: { value: [{ error: null }] } })]);
    await expect(removeTeamMembers(serviceClient(short.url), 't', ['a', 'b'])).rejects.toThrow(
      'A 207 answer has 1 results for 2 members',
    );
    const none = await scripted([() => ({ status: 207, body: {} })]);
    await expect(removeTeamMembers(serviceClient(none.url), 't', ['a'])).rejects.toThrow(
      'A 207 answer has no results for 1 members',
    );
  });
});

describe('message delta, scripted', () => {
  const store = (link?: string) => ({
    link,
    load() {
      return this.link;
    },
    save(value: string) {
      this.link = value;
    },
  });

  it('refuses pages of the wrong shape, and a last page without a delta link', async () => {
    for (const [body, message] of [
      [{ items: [] }, 'A delta page has no "value" array'],
      [{ value: [{ subject: 'no id' }] }, /^A delta item: /],
      [{ value: [] }, 'A delta page has neither a nextLink nor a deltaLink'],
    ] as const) {
      const server = await scripted([() => ({ status: 200, body })]);
      await expect(syncMessages(serviceClient(server.url), { folder: 'inbox', store: store() })).rejects.toThrow(
        message,
      );
    }
  });

  it('restarts with a full round on 410 and on syncStateNotFound, resyncRequired or syncStateInvalid; other errors stand', async () => {
    for (const [status, code] of [
      [410, 'Gone'],
      [400, 'syncStateNotFound'],
      [400, 'resyncRequired'],
      [400, 'syncStateInvalid'],
    ] as const) {
      const server = await scripted([
        () => ({ status, body: { error: { code, message: 'start again' } } }),
        () => ({ status: 200, body: { value: [{ id: 'm1' }], '@odata.deltaLink': `${server.url}/v1.0/next` } }),
      ]);
      const saved = store(`${server.url}/v1.0/me/mailFolders('inbox')/messages/delta?$deltatoken=old`);
      const result = await syncMessages(serviceClient(server.url), {
        folder: 'inbox',
        store: saved,
        pageSize: 5,
        select: ['subject'],
      });
      expect(result, code).toMatchObject({ restarted: true, restartReason: `${code}: start again`, pages: 1 });
      expect(saved.link).toBe(`${server.url}/v1.0/next`);
      expect(server.seen[1]!.url).toBe('/v1.0/me/mailFolders/inbox/messages/delta?%24select=subject');
      expect(server.seen.map((s) => s.headers.prefer)).toEqual(['odata.maxpagesize=5', 'odata.maxpagesize=5']);
    }
    const denied = await scripted([() => ({ status: 403, body: { error: { code: 'Forbidden', message: 'no' } } })]);
    await expect(
      syncMessages(serviceClient(denied.url), {
        folder: 'inbox',
        store: store(`${denied.url}/v1.0/me/mailFolders('inbox')/messages/delta?$deltatoken=old`),
      }),
    ).rejects.toMatchObject({ status: 403 });
  });
});

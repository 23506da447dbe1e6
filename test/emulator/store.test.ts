/**
 * The emulator's state store, directly: records are frozen when stored, users are found by id or by user principal
 * name whatever its case, children are indexed under their parent and leave it when they move or go, and a
 * transaction's changes are seen by its own reads and reach the store only when applied.
 */
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, deepFreeze, isCollectionName, Store, Transaction } from '../../src/emulator/store.js';

describe('records', () => {
  it('are deep-frozen when stored, arrays and nested objects included; primitives and null pass through', () => {
    const store = new Store();
    store.apply([['groups', 'g', { id: 'g', tags: ['a', { deep: 1 }], owner: { id: 'u' } }]]);
    const group = store.get('groups', 'g')! as { tags: [string, { deep: number }]; owner: { id: string } };
    expect(Object.isFrozen(group)).toBe(true);
    expect(Object.isFrozen(group.tags)).toBe(true);
    expect(Object.isFrozen(group.tags[1])).toBe(true);
    expect(Object.isFrozen(group.owner)).toBe(true);
    expect(() => {
      (group.owner as { id: string }).id = 'x';
    }).toThrow(TypeError);
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze(5)).toBe(5);
    expect(deepFreeze('s')).toBe('s');
    // An object already frozen is left as it is, its children too.
    const inner = { n: 1 };
    const outer = Object.freeze({ inner });
    deepFreeze(outer);
    expect(Object.isFrozen(inner)).toBe(false);
  });

  it('counts, lists, replaces and removes records; an unknown collection is a TypeError', () => {
    const store = new Store();
    store.apply([
      ['groups', 'a', { id: 'a' }],
      ['groups', 'b', { id: 'b' }],
    ]);
    expect(store.size('groups')).toBe(2);
    store.apply([
      ['groups', 'a', { id: 'a', v: 2 }],
      ['groups', 'b', null],
    ]);
    expect([...store.all('groups')]).toEqual([{ id: 'a', v: 2 }]);
    expect(store.get('groups', 'b')).toBeUndefined();
    expect(() => store.apply([['nope' as 'groups', 'x', {}]])).toThrow('unknown collection nope');
    expect(store.toJSON().groups).toEqual({ a: { id: 'a', v: 2 } });
    expect(Object.keys(store.toJSON())).toEqual([...COLLECTIONS]);
  });

  it('knows its collection names', () => {
    expect(isCollectionName('users')).toBe(true);
    expect(isCollectionName('Users')).toBe(false);
    expect(isCollectionName('nothing')).toBe(false);
    expect(isCollectionName(5)).toBe(false);
    expect(isCollectionName(['users'])).toBe(false);
  });
});

describe('users', () => {
  it('are found by id, or by user principal name in any case; a renamed or removed user by the old name is not', () => {
    const store = new Store();
    store.apply([['users', 'u1', { id: 'u1', userPrincipalName: 'Adele@Contoso.example' }]]);
    expect(store.user('u1')!.id).toBe('u1');
    expect(store.user('adele@contoso.example')!.id).toBe('u1');
    expect(store.user('ADELE@CONTOSO.EXAMPLE')!.id).toBe('u1');
    store.apply([['users', 'u1', { id: 'u1', userPrincipalName: 'adele.v@contoso.example' }]]);
    expect(store.user('adele@contoso.example')).toBeUndefined();
    expect(store.user('Adele.V@contoso.example')!.id).toBe('u1');
    store.apply([['users', 'u1', null]]);
    expect(store.user('adele.v@contoso.example')).toBeUndefined();
    expect(store.user('')).toBeUndefined();
  });

  it('index only users, and only a string user principal name', () => {
    const store = new Store();
    store.apply([
      ['groups', 'g1', { id: 'g1', userPrincipalName: 'group@contoso.example' }],
      ['users', 'u2', { id: 'u2', userPrincipalName: 42 }],
    ]);
    expect(store.user('group@contoso.example')).toBeUndefined();
    expect(store.user('42')).toBeUndefined();
    expect(store.user('u2')!.id).toBe('u2');
  });
});

describe('children', () => {
  it('are listed under their parent, follow a move, and leave when removed', () => {
    const store = new Store();
    store.apply([
      ['messages', 'm1', { id: 'm1', userId: 'u', folderId: 'inbox' }],
      ['messages', 'm2', { id: 'm2', userId: 'u', folderId: 'inbox' }],
      ['threads', 't1', { id: 't1', groupId: 'g' }],
    ]);
    expect(store.childrenOf('messages', 'u/inbox').map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(store.childrenOf('threads', 'g').map((t) => t.id)).toEqual(['t1']);
    store.apply([['messages', 'm1', { id: 'm1', userId: 'u', folderId: 'archive' }]]);
    expect(store.childrenOf('messages', 'u/inbox').map((m) => m.id)).toEqual(['m2']);
    expect(store.childrenOf('messages', 'u/archive').map((m) => m.id)).toEqual(['m1']);
    store.apply([['messages', 'm2', null]]);
    expect(store.childrenOf('messages', 'u/inbox')).toEqual([]);
    // A parent emptied and filled again lists only its new child.
    store.apply([['messages', 'm3', { id: 'm3', userId: 'u', folderId: 'inbox' }]]);
    expect(store.childrenOf('messages', 'u/inbox').map((m) => m.id)).toEqual(['m3']);
    expect(store.childrenOf('groups', 'anything')).toEqual([]);
    expect(store.childrenOf('events', 'nobody')).toEqual([]);
    // Removing a record of a collection without parents is fine.
    store.apply([
      ['groups', 'g', { id: 'g' }],
      ['groups', 'g', null],
    ]);
    expect(store.size('groups')).toBe(0);
  });
});

describe('transactions', () => {
  it('see their own puts and removals, keep one change per record, and change the store only when applied', () => {
    const store = new Store();
    store.apply([['groups', 'a', { id: 'a' }]]);
    const tx = new Transaction(store);
    expect(tx.get('groups', 'a')).toEqual({ id: 'a' });
    tx.put('groups', 'b', { id: 'b' });
    tx.put('groups', 'b', { id: 'b', v: 2 });
    tx.remove('groups', 'a');
    // Same id in another collection is another record.
    tx.put('teams', 'a', { id: 'a', team: true });
    expect(tx.get('groups', 'a')).toBeUndefined();
    expect(tx.get('groups', 'b')).toEqual({ id: 'b', v: 2 });
    expect(tx.get('teams', 'a')).toEqual({ id: 'a', team: true });
    expect(store.get('groups', 'a')).toEqual({ id: 'a' });
    expect(store.get('groups', 'b')).toBeUndefined();
    expect(tx.changes()).toEqual([
      ['groups', 'b', { id: 'b', v: 2 }],
      ['groups', 'a', null],
      ['teams', 'a', { id: 'a', team: true }],
    ]);
    store.apply(tx.changes());
    expect(store.get('groups', 'a')).toBeUndefined();
    expect(store.get('teams', 'a')).toEqual({ id: 'a', team: true });
  });
});

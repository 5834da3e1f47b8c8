/**
 * The trigger's sets of ids (trigger/state/idSet.ts): stored as their fingerprints, sorted, in one
 * string, the form saved states hold.
 */
import { fingerprint } from '../nodes/SubscriptionBilling/trigger/state/cells';
import { IdSet, storedId } from '../nodes/SubscriptionBilling/trigger/state/idSet';

const packed = (ids: string[]) => ids.map(fingerprint).sort().join('');

test('ids in, their fingerprints stored sorted once each; a stored set read back', () => {
	const set = new IdSet();
	for (const id of ['b', 'a', 'c|2026-01-01', 'a']) set.add(id);
	set.delete('b');
	expect(set.store()).toBe(packed(['a', 'c|2026-01-01']));
	const read = IdSet.read(set.store());
	expect([read.has('a'), read.has('c|2026-01-01'), read.has('b')]).toEqual([true, true, false]);
	expect(IdSet.read(undefined).store()).toBe('');
	expect(storedId('a')).toBe(fingerprint('a'));
});

test('pack stores a list, an id listed twice twice', () => {
	expect(IdSet.pack(['b', 'a', 'b'])).toBe(packed(['a', 'b', 'b']));
});

// How the server names operators to each other (decisions-server.md §55, §82): a name given once
// is shown as given; a name two operators gave (however its case or invisible characters differ)
// is shown with each one's did tail, so the second cannot pass as the first.
import { afterEach, describe, expect, it } from 'vitest';
import { tempStore, type TempStore } from '../test-support/temp-store';
import { operatorName } from './operator-name';

const ADA = 'did:key:z6MkAdaFirstOperatorKeyAAAAAAAAAAAAAAAAAAAAAAAAAAAAfirst1';
const MIMIC = 'did:key:z6MkMimicOperatorKeyBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBmimic2';
const NAMELESS = 'did:key:z6MkNamelessOperatorKeyCCCCCCCCCCCCCCCCCCCCCCCCCCnoname';

let temp: TempStore | undefined;
afterEach(async () => temp?.dispose());

describe('operatorName', () => {
  it('shows a unique name as given, a shared one with each did tail, and “Operator …tail” without a name', async () => {
    temp = tempStore();
    const { store } = temp;
    await store.access.putOperator({ did: ADA, role: 'facilitator', createdAt: 1, name: 'Ada' });
    await store.access.putOperator({ did: NAMELESS, role: 'observer', createdAt: 1 });
    expect(await operatorName(store, ADA)).toBe('Ada');
    expect(await operatorName(store, NAMELESS)).toBe('Operator …noname');
    // A second operator takes the first one's name, with a zero-width space and another case.
    await store.access.putOperator({ did: MIMIC, role: 'observer', createdAt: 2, name: 'ADA\u200b' });
    expect(await operatorName(store, ADA)).toBe('Ada (…first1)');
    expect(await operatorName(store, MIMIC)).toBe('ADA\u200b (…mimic2)');
  });
});

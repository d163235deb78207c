// A publish refused on purpose, by either broker's intake (a room nobody created, a retained
// message): the broker refuses it quietly rather than logging a fault.

/** A refusal the broker expects (e.g. a room nobody created): refused quietly, not logged as a fault. */
export class RefusedPublish extends Error {
  override readonly name: string = 'RefusedPublish';
}

// Revocation of open MQTT connections: a credential checked at CONNECT is asked again while the
// connection stays (docs/decisions-server.md §39).

/** Whether a connection's credential still holds: not removed, rotated, logged out, expired or demoted. */
export type StillValid = () => Promise<boolean>;

/** How often open connections are checked again by default (MQTT_REVALIDATE_MS). */
export const DEFAULT_REVALIDATE_MS = 2_000;

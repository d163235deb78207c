// How a broker's CONNACK refusal of a credential reads in mqtt.js's error message (MQTT 5 reason
// "Not authorized" / "Bad User Name or Password", and 3.1.1's return codes 4 and 5).

/** Whether a failed connect was the broker refusing the username or password, not an unreachable broker. */
export const isAuthRefusal = (message: string) => /not authorized|bad user name or password/i.test(message);

// Builds small .ics texts for tests: CRLF line ends, a VCALENDAR wrapper unless told otherwise.
export const BERLIN = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:STANDARD',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

export const calendar = (...body: (string | readonly string[])[]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...body.flat(), 'END:VCALENDAR', ''].join('\r\n');

export const vevent = (...properties: string[]): string[] => [
  'BEGIN:VEVENT',
  ...(properties.some((p) => p.startsWith('UID')) ? [] : ['UID:urn:uuid:meet-1']),
  ...(properties.some((p) => p.startsWith('DTSTAMP')) ? [] : ['DTSTAMP:20251203T090500Z']),
  ...properties,
  'END:VEVENT',
];

// Days and times typed by people (decisions-web.md §36): the console writes dates one way (en-GB,
// "Sat 28 Nov 2026", web/lib/time-words.ts) and reads them the same way back, day before month,
// never the browser's US order. ISO 8601 ("2026-11-28", "2026-11-28T14:30") is read too, so a
// pasted machine date works. Pure: the results are the `<input type=date|datetime-local>` value
// shapes the forms already check ("YYYY-MM-DD", "YYYY-MM-DDTHH:MM").

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAY = /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+/i;
const pad = (n: number) => String(n).padStart(2, '0');

function isoDay(year: number, month: number, day: number): string | null {
  if (!(year >= 1970 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= 31)) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? `${year}-${pad(month)}-${pad(day)}` : null;
}

/** "28 Nov 2026", "Sat 28 November 2026", "28/11/2026", "2026-11-28" → "2026-11-28"; else null. */
export function parseDay(text: string): string | null {
  const t = text.trim().replace(WEEKDAY, '');
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (m) return isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\s*[/.]\s*(\d{1,2})\s*[/.]\s*(\d{4})$/.exec(t);
  if (m) return isoDay(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})$/i.exec(t);
  if (m) {
    const name = m[2]!.toLowerCase();
    const month = MONTHS.findIndex((mo) => name.startsWith(mo));
    return month >= 0 ? isoDay(Number(m[3]), month + 1, Number(m[1])) : null;
  }
  return null;
}

/** A day and a 24-hour time: "28 Nov 2026, 14:30", "2026-11-28T14:30" → "2026-11-28T14:30"; else null. */
export function parseDayTime(text: string): string | null {
  const m = /^(.*?)(?:,?\s+|T)(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const day = parseDay(m[1]!);
  const hour = Number(m[2]);
  const minute = Number(m[3]);
  return day && hour <= 23 && minute <= 59 ? `${day}T${pad(hour)}:${pad(minute)}` : null;
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The console's own way back: "2026-11-28" → "28 Nov 2026", "2026-11-28T14:30" → "28 Nov 2026, 14:30". */
export function dayInputText(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(value);
  if (!m) return value;
  const day = `${Number(m[3])} ${SHORT_MONTHS[Number(m[2]) - 1]} ${m[1]}`;
  return m[4] === undefined ? day : `${day}, ${m[4]}:${m[5]}`;
}

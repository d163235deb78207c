// What the demo Agora agents offer: three capability manifests and canned answers that follow
// from the request's params (no network, no model), so a fresh install has a live directory.
import type { CapabilityManifest, Intent } from '@shared/agora/capability-manifest';

/** A manifest before its `auth` (the agent's key) is filled in. */
export interface ManifestBody {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly version?: string;
  readonly intents: readonly (Intent & { readonly SLA?: string })[];
  readonly pricing: CapabilityManifest['pricing'];
  readonly privacy_policy?: string;
  readonly supported_languages?: readonly string[];
}

export interface DemoService {
  /** Names the agent's key (with the demo seed) and its AOR-free identity in logs. */
  readonly key: string;
  readonly displayName: string;
  readonly manifest: ManifestBody;
  /** Price of one request in USD, as offered. */
  readonly price: number;
  readonly etaSeconds: number;
  readonly answer: (intent: string, params: Record<string, unknown>) => Record<string, unknown>;
}

const GREETINGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  zh: { 'hello world': '你好，世界', 'good morning': '早上好', 'thank you': '谢谢' },
  fr: { 'hello world': 'Bonjour le monde', 'good morning': 'Bonjour', 'thank you': 'Merci' },
  ja: { 'hello world': 'こんにちは世界', 'good morning': 'おはようございます', 'thank you': 'ありがとう' },
};

const text = (params: Record<string, unknown>, key: string, fallback: string): string => {
  const value = params[key];
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 500) : fallback;
};

/** A stable number in [0, 1) from a string, so the same city gets the same weather. */
function hashUnit(value: string): number {
  let hash = 0x811c9dc5;
  for (const char of value) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return hash / 4294967296;
}

export const TRANSLATOR: DemoService = {
  key: 'translator',
  displayName: 'Demo Translator',
  price: 0.005,
  etaSeconds: 2,
  manifest: {
    id: 'cap_demo_translation',
    name: 'Demo Translator',
    description: 'Translates short English phrases (demo: a small phrase book).',
    version: '1.0.0',
    intents: [
      {
        id: 'translation.en_zh',
        name: 'English to Chinese',
        description: 'Translate English text to Chinese',
        input_schema: { text: 'string' },
        SLA: '2 seconds',
      },
      {
        id: 'translation.en_fr',
        name: 'English to French',
        description: 'Translate English text to French',
        input_schema: { text: 'string' },
        SLA: '2 seconds',
      },
      {
        id: 'translation.en_ja',
        name: 'English to Japanese',
        description: 'Translate English text to Japanese',
        input_schema: { text: 'string' },
        SLA: '2 seconds',
      },
    ],
    pricing: { model: 'metered', currency: 'USD', metered_unit: 'character', metered_rate: 0.00001 },
    privacy_policy: 'https://example.com/privacy',
    supported_languages: ['en', 'zh', 'fr', 'ja'],
  },
  answer: (intent, params) => {
    const target = intent.split('_')[1] ?? 'zh';
    const source = text(params, 'text', 'Hello world');
    const known = GREETINGS[target]?.[source.trim().toLowerCase()];
    return { translation: known ?? `[${target}] ${source}`, confidence: known ? 0.99 : 0.4 };
  },
};

export const WEATHER: DemoService = {
  key: 'weather',
  displayName: 'Demo Weather',
  price: 0,
  etaSeconds: 1,
  manifest: {
    id: 'cap_demo_weather',
    name: 'Demo Weather',
    description: 'Current conditions for a city (demo: derived from the city name).',
    version: '1.0.0',
    intents: [
      {
        id: 'weather.current',
        name: 'Current weather',
        description: 'Provides weather information for a city',
        input_schema: { city: 'string' },
      },
    ],
    pricing: { model: 'free' },
    supported_languages: ['en'],
  },
  answer: (_intent, params) => {
    const city = text(params, 'city', 'New York');
    const unit = hashUnit(city.toLowerCase());
    const conditions = ['Sunny', 'Cloudy', 'Light rain', 'Windy', 'Clear'];
    return {
      city,
      temperature_c: Math.round(unit * 30 - 2),
      condition: conditions[Math.floor(unit * conditions.length)],
    };
  },
};

export const ROOM_BOOKER: DemoService = {
  key: 'room-booker',
  displayName: 'Demo Room Booker',
  price: 0.02,
  etaSeconds: 3,
  manifest: {
    id: 'cap_demo_rooms',
    name: 'Demo Room Booker',
    description: 'Books meeting rooms (demo: every booking succeeds).',
    version: '1.0.0',
    intents: [
      {
        id: 'rooms.book',
        name: 'Book a meeting room',
        description: 'Schedules a room for the given date, time and duration',
        input_schema: { date: 'YYYY-MM-DD', time: 'HH:mm', minutes: 'number' },
        SLA: '60 seconds',
      },
    ],
    pricing: { model: 'fixed', currency: 'USD', amount: 0.02 },
    supported_languages: ['en'],
  },
  answer: (_intent, params) => {
    const date = text(params, 'date', '2026-02-03');
    const time = text(params, 'time', '14:00');
    const room = ['Orion', 'Lyra', 'Vega'][Math.floor(hashUnit(`${date}T${time}`) * 3)];
    return {
      booking_id: `bk_${date.replaceAll('-', '')}_${time.replace(':', '')}`,
      room,
      date,
      time,
      minutes: typeof params.minutes === 'number' ? params.minutes : 30,
    };
  },
};

export const DEMO_SERVICES: readonly DemoService[] = [TRANSLATOR, WEATHER, ROOM_BOOKER];

/** What the demo concierge asks for, in turn. */
export const DEMO_ASKS: readonly {
  readonly service: DemoService;
  readonly intent: string;
  readonly title: string;
  readonly params: Record<string, unknown>;
}[] = [
  {
    service: TRANSLATOR,
    intent: 'translation.en_zh',
    title: 'Translate greeting',
    params: { text: 'Hello world', source_lang: 'en', target_lang: 'zh' },
  },
  { service: WEATHER, intent: 'weather.current', title: 'Weather in Lisbon', params: { city: 'Lisbon' } },
  {
    service: ROOM_BOOKER,
    intent: 'rooms.book',
    title: 'Book a room for the review',
    params: { date: '2026-02-03', time: '14:00', minutes: 45 },
  },
  {
    service: TRANSLATOR,
    intent: 'translation.en_fr',
    title: 'Translate thanks',
    params: { text: 'Thank you', source_lang: 'en', target_lang: 'fr' },
  },
];

// Researcher — finds options and compares them.
import type { WorkerProfile } from './content';

export const RESEARCHER: WorkerProfile = {
  agentId: 'agent.researcher',
  description: 'Researcher — finds options and compares them',
  topics: [
    {
      goal: 'Find 3 managed MQTT brokers for a 5,000-device fleet, with pros and cons',
      format: 'bullets',
      question: 'Should I weigh price or built-in high availability more?',
      answers: [
        'Price first; HA is a nice-to-have for now.',
        'High availability matters more than price here.',
        'Weigh them equally, but flag anything over budget.',
      ],
      progress: [
        'Pulled pricing pages for EMQX Cloud, HiveMQ Cloud and a self-run Mosquitto.',
        'Pricing done; checking connection limits and SLAs next.',
      ],
      findings: [
        [
          'EMQX Cloud is about {n:20-35}% cheaper than HiveMQ Cloud at 5,000 devices',
          'HiveMQ Cloud includes a 99.95% SLA and built-in HA',
          'Self-run Mosquitto costs ~${n:40-90}/month but needs on-call',
        ],
        [
          'All three speak MQTT 5, so shared subscriptions work everywhere',
          'EMQX and HiveMQ include a rules engine; Mosquitto needs extra tooling',
        ],
      ],
      risks: [
        {
          text: 'A self-run broker is a single point of failure without clustering.',
          severity: 'high',
          mitigation: 'Use a managed tier or run two nodes behind a load balancer.',
        },
        {
          text: 'Per-message pricing could spike if devices misbehave.',
          severity: 'medium',
          mitigation: 'Set per-client rate limits and a billing alert.',
        },
      ],
      artifact: { label: 'Broker comparison table', path: 'research/mqtt-broker-comparison' },
      results: [
        'Recommend EMQX Cloud: cheapest at our scale with HA included. Next step: a one-week load test with {n:500-1500} simulated devices.',
      ],
    },
    {
      goal: 'Shortlist venues for the March team offsite (30 people, two days)',
      format: 'bullets',
      question: 'Is a venue outside the city OK if travel is under 90 minutes?',
      answers: [
        'Yes, up to 90 minutes is fine.',
        'Yes, as long as it is reachable by train.',
        'City only, please: several people cannot stay overnight.',
      ],
      progress: [
        'Checked availability for the second and third week of March.',
        'Three venues have space; comparing catering and rooms.',
      ],
      findings: [
        [
          'Lakeside Lodge: €{n:140-190} per person per day, quiet, 80 minutes by train',
          'Old Mill Conference Centre: €{n:110-150} per person, in town, no overnight rooms',
          'City Loft: cheapest at €{n:80-105}, but a single room',
        ],
        ['Only Lakeside Lodge has breakout rooms for {n:4-6} groups', 'Old Mill includes AV; the others charge extra'],
      ],
      risks: [
        {
          text: 'March is conference season; holds expire in {n:5-10} days.',
          severity: 'medium',
          mitigation: 'Place a no-cost hold on the top choice this week.',
        },
      ],
      artifact: { label: 'Venue shortlist', path: 'research/offsite-venues' },
      results: [
        'Shortlist: Lakeside Lodge first, Old Mill as the backup. Next step: place a hold and share dates with the team.',
      ],
    },
    {
      goal: 'Find a vector database for the support-search prototype',
      format: 'bullets',
      question: 'Can we add a new service, or should it live in our existing PostgreSQL?',
      answers: [
        'Stay in PostgreSQL if it is good enough.',
        'A new service is fine if it is managed.',
        'Either, but keep the operations work minimal.',
      ],
      progress: [
        'Listed candidates: pgvector, Qdrant, Weaviate.',
        'Ran a quick recall check on {n:10-50}k sample tickets.',
      ],
      findings: [
        [
          'pgvector: no new service, recall@10 of 0.{n:86-93} on our sample',
          'Qdrant: fastest queries (~{n:4-9} ms p95), needs its own deployment',
          'Weaviate: built-in hybrid search, heaviest to run',
        ],
        [
          'At {n:200-400}k vectors all three stay under 50 ms p95',
          'Only pgvector keeps tickets and vectors in one transaction',
        ],
      ],
      risks: [
        {
          text: 'pgvector index builds can slow writes on large tables.',
          severity: 'medium',
          mitigation: 'Build indexes concurrently, off-hours.',
        },
      ],
      artifact: { label: 'Recall benchmark notebook', path: 'research/vector-db-benchmark' },
      results: ['Recommend pgvector for the prototype; revisit Qdrant past a million vectors.'],
    },
    {
      goal: 'Compare error-tracking services for the mobile app',
      format: 'bullets',
      question: 'Do we need on-premise hosting for compliance?',
      answers: [
        'No, EU-hosted SaaS is fine.',
        'Yes, the data must stay on our servers.',
        'Not now, but keep the option open.',
      ],
      progress: ['Compared Sentry, Bugsnag and Rollbar pricing tiers.', 'Checking SDK size and offline crash capture.'],
      findings: [
        [
          'Sentry: self-hostable, {n:5-10}k events a month free',
          'Bugsnag: best stability scores per release',
          'Rollbar: simplest pricing, weaker mobile SDK',
        ],
        ['The Sentry SDK adds ~{n:300-600} KB to the app', 'All three symbolicate iOS crashes automatically'],
      ],
      risks: [
        {
          text: 'Crash reports may capture personal data.',
          severity: 'high',
          mitigation: 'Turn on PII scrubbing before rollout.',
        },
      ],
      artifact: { label: 'Error-tracking comparison', path: 'research/error-tracking' },
      results: ['Recommend Sentry in its EU region: good mobile SDKs, and a self-hosting path if compliance changes.'],
    },
  ],
  fallback: (goal) => ({
    goal,
    format: 'bullets',
    question: 'Any constraints I should respect: budget, vendors or deadline?',
    answers: [],
    progress: ['Gathering sources for: {goal}.', 'Narrowed the field to three options.'],
    findings: [
      [
        'Option A: most mature, highest cost',
        'Option B: about {n:20-40}% cheaper, smaller community',
        'Option C: newest, best feature fit',
      ],
    ],
    risks: [
      {
        text: 'Sources for option C are thin; numbers may be optimistic.',
        severity: 'low',
        mitigation: 'Ask the vendor for a reference customer.',
      },
    ],
    artifact: { label: 'Research notes', path: 'research/notes' },
    results: ['For “{goal}”: option B is the best value; option A if support matters most.'],
  }),
};

// Analyst — checks numbers and risks.
import type { WorkerProfile } from './content';

export const ANALYST: WorkerProfile = {
  agentId: 'agent.analyst',
  description: 'Analyst — checks numbers and risks',
  topics: [
    {
      goal: "Check last month's cloud bill for anomalies",
      format: 'short summary',
      question: 'Should I include the staging account, or production only?',
      answers: ['Production only.', 'Both, but report them separately.', 'Include staging; it has been creeping up.'],
      progress: [
        'Loaded {n:28-31} days of cost data by service.',
        'Compared each service with its three-month average.',
      ],
      findings: [
        [
          'Compute is up {n:12-25}% month over month, mostly from one autoscaling group',
          'Egress doubled on {n:3-5} days matching the marketing launch',
          'Storage is flat',
        ],
        [
          '{n:6-14} idle load balancers cost about ${n:150-400} a month',
          'Reserved instances cover only {n:40-60}% of steady compute',
        ],
      ],
      risks: [
        {
          text: 'The autoscaling group has no upper bound.',
          severity: 'high',
          mitigation: 'Set a maximum size and a budget alert at 120% of forecast.',
        },
        {
          text: 'Some costs are untagged and cannot be attributed.',
          severity: 'low',
          mitigation: 'Require a cost-centre tag in CI.',
        },
      ],
      artifact: { label: 'Cost breakdown', path: 'analysis/cloud-bill' },
      results: [
        'The bill is up {n:9-18}%, mainly from unbounded autoscaling and launch-day egress. Capping the group and removing idle load balancers saves ~${n:800-1600} a month.',
      ],
    },
    {
      goal: 'Review the pricing proposal for the Pro plan',
      format: 'bullets',
      question: "Which churn rate should I assume: last year's or last quarter's?",
      answers: [
        "Last quarter's; it is more representative.",
        "Last year's, to be conservative.",
        'Run both and show the range.',
      ],
      progress: [
        "Rebuilt the revenue model from the proposal's assumptions.",
        'Testing sensitivity to churn and conversion.',
      ],
      findings: [
        [
          'At the proposed price, break-even needs {n:180-260} new Pro customers',
          'A {n:2-4} point rise in churn wipes out the gain',
          'Annual billing at {n:15-20}% off improves cash flow',
        ],
        [
          "The proposal assumes {n:8-12}% conversion; last year's was {n:4-7}%",
          'Upgrades from Basic drive the result, not new sign-ups',
        ],
      ],
      risks: [
        {
          text: 'The conversion assumption is about twice the historical rate.',
          severity: 'high',
          mitigation: 'Pilot with 10% of traffic before a full launch.',
        },
      ],
      artifact: { label: 'Pricing sensitivity model', path: 'analysis/pro-plan-pricing' },
      results: [
        'The price works only if conversion beats history. Recommend a four-week pilot with a clear stop rule.',
      ],
    },
    {
      goal: 'Validate the Q3 headcount forecast',
      format: 'short summary',
      question: 'Are contractors in scope for this forecast?',
      answers: ['Yes, include contractors.', 'No, employees only.', 'Include them as a separate line.'],
      progress: ['Reconciled the forecast with the HR system.', 'Checking start dates against the hiring pipeline.'],
      findings: [
        [
          '{n:3-6} roles are budgeted from July but have no candidates yet',
          'Salary bands match, except engineering at +{n:4-9}%',
        ],
        [
          'Attrition is modelled at {n:5-8}%; the trailing twelve months show {n:9-13}%',
          'Two open roles are counted twice',
        ],
      ],
      risks: [
        {
          text: 'Under-modelled attrition makes the forecast look {n:2-5}% too cheap.',
          severity: 'medium',
          mitigation: 'Use the trailing twelve-month attrition rate.',
        },
      ],
      artifact: { label: 'Forecast reconciliation', path: 'analysis/q3-headcount' },
      results: [
        'The forecast is {n:2-6}% low: remove the double-counted roles and use real attrition before sign-off.',
      ],
    },
    {
      goal: 'Estimate the break-even point for the new warehouse',
      format: 'bullets',
      question: 'Should I assume the current shipping volume or the forecast growth?',
      answers: ['Current volume, to be safe.', 'Use the forecast growth.', 'Show both scenarios.'],
      progress: [
        'Collected lease, staffing and equipment costs.',
        'Modelling per-order savings from shorter delivery routes.',
      ],
      findings: [
        [
          'Fixed costs: about €{n:38-55}k a month',
          'Savings: €{n:1-3}.{n:10-90} per order from shorter routes',
          'Break-even at ~{n:18-30}k orders a month',
        ],
        ['Current volume is {n:14-22}k orders a month', 'Without growth, break-even comes {n:4-8} months later'],
      ],
      risks: [
        {
          text: 'The lease has a five-year minimum term.',
          severity: 'high',
          mitigation: 'Negotiate a break clause at year two.',
        },
      ],
      artifact: { label: 'Break-even model', path: 'analysis/warehouse-break-even' },
      results: ['Break-even in about {n:14-26} months at forecast growth; go ahead only with a break clause.'],
    },
  ],
  fallback: (goal) => ({
    goal,
    format: 'short summary',
    question: 'Which numbers should I treat as the baseline?',
    answers: [],
    progress: ['Collecting the numbers behind: {goal}.', 'Checking the assumptions one by one.'],
    findings: [['{n:2-4} assumptions have no source', 'The largest cost line moves the result by {n:10-30}%']],
    risks: [
      {
        text: 'The result is sensitive to one unsourced assumption.',
        severity: 'medium',
        mitigation: 'Get a source or show a range.',
      },
    ],
    artifact: { label: 'Working model', path: 'analysis/model' },
    results: ['For “{goal}”: the numbers hold within ±{n:5-15}% once the unsourced assumptions are confirmed.'],
  }),
};

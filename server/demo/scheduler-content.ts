// Scheduler — plans timelines and meetings. Times are UTC (zones only at the edges: on screen and in calendar files).
import type { WorkerProfile } from './content';

export const SCHEDULER: WorkerProfile = {
  agentId: 'agent.scheduler',
  description: 'Scheduler — plans timelines and meetings',
  topics: [
    {
      goal: 'Plan the rollout timeline for the new billing system',
      format: 'timeline',
      question: 'Is a change freeze in the last week of the quarter required?',
      answers: [
        'Yes, no changes in the last week of the quarter.',
        'No freeze needed this time.',
        'Only for payment flows.',
      ],
      progress: [
        'Mapped dependencies: data migration, QA, support training.',
        'Drafted the phases; checking team availability.',
      ],
      findings: [
        [
          'Weeks 1–2: data migration dry runs',
          'Week 3: QA and shadow billing',
          'Week {n:4-5}: switch-over, old system read-only for 30 days',
        ],
        ['Support needs {n:2-3} training sessions before switch-over', 'Finance sign-off is the critical path'],
      ],
      risks: [
        {
          text: 'Switch-over overlaps the month-end close.',
          severity: 'high',
          mitigation: 'Move switch-over to the first Tuesday of the month.',
        },
      ],
      artifact: { label: 'Rollout plan', path: 'plans/billing-rollout' },
      results: [
        'Proposed: a {n:5-6}-week rollout, switch-over on the first Tuesday after month-end, with a rollback plan ready.',
      ],
    },
    {
      goal: 'Find a 45-minute slot for the architecture review this week',
      format: 'short summary',
      question: 'Can the review run over lunch if that is the only common slot?',
      answers: ['Yes, if we order food.', 'No lunches, please.', 'Only on Thursday.'],
      progress: ['Checked calendars of {n:6-9} required attendees.', 'Two candidate slots left; checking rooms.'],
      findings: [
        [
          'Thursday 14:00–14:45 UTC: every required attendee is free',
          'Wednesday 09:30 UTC works for all but one optional attendee',
        ],
        [
          'The large meeting room is free on Thursday afternoon',
          '{n:2-3} attendees are remote, so a video link is needed',
        ],
      ],
      risks: [
        {
          text: 'One required attendee has a tentative conflict on Thursday.',
          severity: 'low',
          mitigation: 'Ask them to confirm by Tuesday.',
        },
      ],
      artifact: { label: 'Invite draft', path: 'plans/architecture-review-invite' },
      results: ['Proposed: Thursday 14:00–14:45 UTC in the large room with a video link; invites are ready to send.'],
    },
    {
      goal: 'Schedule the quarterly on-call handover',
      format: 'short summary',
      question: 'Should the handover include the new EU team?',
      answers: ['Yes, include the EU team.', 'Not yet; they start next quarter.', 'Invite them as observers.'],
      progress: ['Collected the current and the next rota.', 'Looking for a slot across {n:3-4} time zones.'],
      findings: [
        ['Common window across time zones: 15:00–16:00 UTC', '{n:2-4} engineers change shifts on the handover day'],
        ['The last handover took {n:50-70} minutes; plan for 60', 'Runbooks need a review before the session'],
      ],
      risks: [
        {
          text: 'The handover falls on a public holiday in one region.',
          severity: 'medium',
          mitigation: 'Hold it one day earlier.',
        },
      ],
      artifact: { label: 'On-call rota', path: 'plans/on-call-rota' },
      results: ['Handover at 15:00 UTC the day before the rota switch, 60 minutes, with a runbook review as prework.'],
    },
    {
      goal: 'Plan the customer webinar series for next month',
      format: 'timeline',
      question: 'How many sessions should we aim for: two or four?',
      answers: ['Two, done well.', 'Four, one a week.', 'Three, skipping the holiday week.'],
      progress: ['Listed speakers and their availability.', 'Drafting the promotion timeline.'],
      findings: [
        ['Speakers are free on {n:3-4} Wednesdays next month', 'Each session needs {n:10-14} days of promotion'],
        ['Recordings can go out within {n:24-48} hours', 'A dry run per session avoids demo failures'],
      ],
      risks: [
        {
          text: 'The first Wednesday leaves only {n:6-9} days to promote.',
          severity: 'medium',
          mitigation: 'Start on the second Wednesday.',
        },
      ],
      artifact: { label: 'Webinar calendar', path: 'plans/webinar-series' },
      results: [
        'Series plan: consecutive Wednesdays from the second week, each with a dry run and a twelve-day promotion window.',
      ],
    },
  ],
  fallback: (goal) => ({
    goal,
    format: 'timeline',
    question: 'Is there a hard deadline I should plan back from?',
    answers: [],
    progress: ['Listing the steps behind: {goal}.', 'Ordering the steps by dependency.'],
    findings: [
      ['{n:3-5} steps, {n:1-2} of them on the critical path', 'The earliest realistic finish is in {n:2-4} weeks'],
    ],
    risks: [
      {
        text: 'One step depends on a team with no confirmed availability.',
        severity: 'medium',
        mitigation: 'Confirm their capacity this week.',
      },
    ],
    artifact: { label: 'Draft timeline', path: 'plans/timeline' },
    results: ['For “{goal}”: a {n:2-4}-week plan with the critical path first; dates are ready to confirm.'],
  }),
};

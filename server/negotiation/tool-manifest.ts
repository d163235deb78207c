// This Tool's RFC 0002 §3.6 manifest declaration, served at GET /oap/manifest. The limits the
// state machine enforces come from it (limitsFromManifest), so what is declared is what is enforced.
import { unwrap } from '@shared/errors';
import { limitsFromManifest, type ManifestDeclaration, type NegotiationLimits } from '@shared/negotiation/manifest';

export const TOOL_MANIFEST: ManifestDeclaration = {
  negotiation: {
    supported: true,
    categories: ['pricing', 'scheduling', 'service-level', 'data-access'],
    max_rounds: 8,
    default_validity_minutes: 60,
    binding_acceptance: true,
    // The terms the demo's agents and RFC 0002 §3.4's example use, one form field each
    // (shared/negotiation/term-fields.ts); any other term may still be sent as JSON.
    terms: {
      pricing: [
        {
          name: 'price_per_call_eur',
          label: 'Price per call (EUR)',
          type: 'decimal',
          decimals: 4,
          min: 0,
          required: true,
        },
        { name: 'calls_per_month', label: 'Calls per month', type: 'integer', min: 1 },
        { name: 'effective_from', label: 'Start date', type: 'date' },
        { name: 'minimum_commitment_months', label: 'Minimum commitment (months)', type: 'integer', min: 0, max: 120 },
        { name: 'action', label: 'Service action', type: 'text', hint: 'e.g. weather.forecast.detailed' },
      ],
      'service-level': [
        { name: 'uptime_percent', label: 'Uptime (%)', type: 'number', min: 0, max: 100, required: true },
        { name: 'response_minutes', label: 'Response time (minutes)', type: 'integer', min: 1 },
        { name: 'credit_percent', label: 'Service credit (%)', type: 'number', min: 0, max: 100 },
      ],
      'data-access': [
        { name: 'dataset', label: 'Dataset', type: 'text', required: true },
        { name: 'months', label: 'Months', type: 'integer', min: 1, max: 120 },
        { name: 'fee_eur', label: 'Fee (EUR)', type: 'decimal', decimals: 2, min: 0 },
      ],
      // A slot has a time of day: effective_from/until stay JSON (Advanced) here.
      scheduling: [{ name: 'appointment', label: 'Appointment', type: 'text', required: true }],
    },
  },
};

export const toolLimits = (manifest: ManifestDeclaration = TOOL_MANIFEST): NegotiationLimits =>
  unwrap(limitsFromManifest(manifest));

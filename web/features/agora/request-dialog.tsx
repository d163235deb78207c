// Send a REQUEST to one directory agent, signed in this browser with the operator's key:
// pick the capability, fill its params as simple fields (from its request_format) or as JSON.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { isDidKey } from '@shared/crypto/did-key';
import { CodedError } from '@shared/errors';
import { postEnvelope } from '@web/lib/api/agora-event-post';
import type { DirectoryEntry } from '@web/lib/api/agora-agents';
import { signAsOperator } from '@web/lib/identity/sign-agora-envelope';
import { useId, useState, type FormEvent } from 'react';
import { relayErrorWords } from './agora-words';
import { buildRequest } from './envelope-builders';
import { formatFields, missingRequired, paramsFromFields, paramsFromJson } from './request-params';
import { fitsLimit } from '@shared/contract/text-limits';
import { CharCounter } from '@web/components/ui/char-counter';
import { displayText } from '@web/lib/display-text';

export interface RequestDialogProps {
  readonly agent: DirectoryEntry;
  readonly initialTool: string;
  readonly onClose: () => void;
}

export function RequestDialog({ agent, initialTool, onClose }: RequestDialogProps) {
  const [tool, setTool] = useState(initialTool);
  const [asJson, setAsJson] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [jsonText, setJsonText] = useState('{\n  \n}');
  const [title, setTitle] = useState('');
  const [maxCost, setMaxCost] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toolId = useId();
  const jsonId = useId();
  const fields = formatFields(agent.tools[tool]?.request_format);
  const name = displayText(agent.agent_name ?? agent.agent_id);
  // Every typed value is something said to the agent; the title is a one-line label (§26).
  const textFits =
    fitsLimit('line', title.trim()) &&
    (asJson || fields.length === 0
      ? fitsLimit('message', jsonText.trim())
      : fields.every((f) => fitsLimit('message', (values[f.key] ?? '').trim())));

  const send = useMutation({
    mutationFn: async (params: Record<string, unknown>) => {
      const cost = maxCost.trim() === '' ? undefined : Number(maxCost);
      const agentDid = agent.agent_id;
      if (!isDidKey(agentDid))
        throw new CodedError(
          'INVALID_REQUEST',
          'This directory entry is not an Agora agent (its id is not a did:key).',
        );
      const envelope = await signAsOperator((operatorDid) =>
        buildRequest(
          { operatorDid, agentDid, intent: tool, params, title, ...(cost === undefined ? {} : { maxCostUsd: cost }) },
          { now: Date.now(), newId: () => crypto.randomUUID() },
        ),
      );
      await postEnvelope(envelope);
      return envelope.thread.id;
    },
    onSuccess: async (threadId) => {
      await queryClient.invalidateQueries({ queryKey: ['agora', 'threads'] });
      onClose();
      await navigate({ to: '/threads/$threadId', params: { threadId } });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cost = maxCost.trim() === '' ? 0 : Number(maxCost);
    if (!Number.isFinite(cost) || cost < 0)
      return setInputError('The most you pay must be a number of USD, 0 or more.');
    const params = asJson ? paramsFromJson(jsonText) : paramsFromFields(fields, values);
    if (!params.ok) return setInputError(params.message);
    // The tool's schema says what it cannot do without, typed as fields or as JSON (§26).
    const missing = missingRequired(fields, params.params);
    if (missing) return setInputError(missing);
    if (!textFits) return setInputError('A value is longer than a request takes: shorten it to send.');
    setInputError(null);
    send.mutate(params.params);
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Send a request to ${name}`}
      description="Signed in this browser with your key and posted to the relay; the agent answers with an offer you can accept."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div>
          <label htmlFor={toolId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Capability
          </label>
          <select
            id={toolId}
            value={tool}
            onChange={(e) => setTool(e.target.value)}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          >
            {Object.entries(agent.tools).map(([id, declaration]) => (
              <option key={id} value={id}>
                {id}:{' '}
                {declaration.description.length > 120
                  ? `${declaration.description.slice(0, 120)}…`
                  : declaration.description}
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={asJson || fields.length === 0}
            disabled={fields.length === 0}
            onChange={(e) => setAsJson(e.target.checked)}
          />
          Write params as JSON
        </label>
        {asJson || fields.length === 0 ? (
          <div>
            <label htmlFor={jsonId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
              Params (JSON object)
            </label>
            <textarea
              id={jsonId}
              value={jsonText}
              onChange={(e) => setJsonText(e.target.value)}
              rows={5}
              spellCheck={false}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
            />
            <div className="mt-1 text-right">
              <CharCounter kind="message" text={jsonText.trim()} />
            </div>
          </div>
        ) : (
          fields.map((field) => (
            <TextField
              key={`${tool}/${field.key}`}
              label={field.key}
              required={field.required}
              aria-required={field.required}
              hint={
                <span className="flex flex-wrap justify-between gap-2">
                  <span className="min-w-0">
                    {field.required ? 'Required. ' : 'Optional. '}Format: {field.hint}
                  </span>
                  <CharCounter kind="message" text={(values[field.key] ?? '').trim()} />
                </span>
              }
              value={values[field.key] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [field.key]: e.target.value }))}
              autoComplete="off"
            />
          ))
        )}
        <TextField
          label="Title (optional)"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          autoComplete="off"
          hint={<CharCounter kind="line" text={title.trim()} />}
        />
        <TextField
          label="Most you pay, USD (optional)"
          value={maxCost}
          onChange={(e) => setMaxCost(e.target.value)}
          inputMode="decimal"
          autoComplete="off"
        />
        {inputError ? (
          <Notice tone="error" title="Check the request">
            {inputError}
          </Notice>
        ) : null}
        {send.isError ? (
          <Notice tone="error" title="The relay refused the request">
            {relayErrorWords(send.error)}
          </Notice>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={send.isPending} disabled={!textFits}>
            Sign and send
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

// "New agent": an agentId checked as it is typed with the contract's own rule, then the password
// once (password-once.tsx). Closing after that says the password will not be shown again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { AgentId } from '@shared/contract/agents';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { TextField } from '@web/components/ui/text-field';
import { AGENT_ACCOUNTS_KEY, createAgent, type IssuedCredential } from '@web/lib/api/agent-accounts';
import { PasswordOnce } from './password-once';
import { errorInWords } from '@web/lib/api/error-words';

export function NewAgentDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Told the new agent's id once its credential exists. */
  onCreated?: (agentId: string) => void;
}) {
  const queryClient = useQueryClient();
  const [agentId, setAgentId] = useState('');
  const [issued, setIssued] = useState<IssuedCredential | undefined>();
  const create = useMutation({
    mutationFn: createAgent,
    onSuccess: (credential) => {
      setIssued(credential);
      void queryClient.invalidateQueries({ queryKey: AGENT_ACCOUNTS_KEY });
      onCreated?.(credential.agentId);
    },
  });
  const checked = AgentId.safeParse(agentId);
  const error = agentId === '' || checked.success ? undefined : (checked.error.issues[0]?.message ?? 'Not an agentId');
  const close = () => {
    setAgentId('');
    setIssued(undefined);
    create.reset();
    onOpenChange(false);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (checked.success) create.mutate(checked.data);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={issued ? `Credential for ${issued.agentId}` : 'New agent'}
      description={
        issued ? undefined : 'A broker credential: the agent connects with its agentId as the MQTT username.'
      }
    >
      {issued ? (
        <>
          <PasswordOnce issued={issued} />
          <div className="mt-4 flex items-center justify-end gap-3">
            <p className="text-xs text-slate-600 dark:text-slate-400">The password won&apos;t be shown again.</p>
            <Button variant="primary" onClick={close}>
              I have copied it
            </Button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <TextField
            label="Agent id"
            value={agentId}
            onChange={(e) => setAgentId(e.target.value)}
            error={error}
            hint="As the agent names itself in rooms, e.g. agent.researcher"
            autoComplete="off"
            spellCheck={false}
            required
          />
          {create.isError ? (
            <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
              {errorInWords(create.error)}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="primary" busy={create.isPending} disabled={!checked.success}>
              Create credential
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

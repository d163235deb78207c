// Co-signing an agreement as a person does it (decisions-web.md §32): the terms in words first,
// the proof closed, then "Co-sign…" and its confirmation.
import { expect, type Locator } from '@playwright/test';

export async function cosignAgreement(panel: Locator): Promise<void> {
  // Words before the proof: the terms are on screen, the hash is not until asked for.
  await expect(panel.getByTestId('agreement-terms')).toBeVisible();
  await expect(panel.getByTestId('agreement-hash')).toBeHidden();
  await panel.getByRole('button', { name: 'Co-sign…' }).click();
  const dialog = panel.page().getByRole('dialog', { name: 'Co-sign this agreement?' });
  await expect(dialog).toContainText('Agreement between');
  await dialog.getByRole('button', { name: 'Co-sign the agreement' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
}

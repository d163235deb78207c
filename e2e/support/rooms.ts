// Reading a room screen where the words name tasks by their goals (decisions-web.md §33) and the
// ids are data on the element.
import { expect, type Page } from '@playwright/test';

/**
 * After "Assign with mic": the form's confirmation names the task by its goal and the agent; the
 * task id the console made is on the confirmation's `data-task-id`.
 */
export async function taskSent(page: Page, agentId: string, goal: string): Promise<string> {
  const sent = page.getByTestId('task-sent');
  await expect(sent).toContainText(`sent to ${agentId}, with its mic.`);
  await expect(sent).toContainText(goal.split(/\s+/).slice(0, 10).join(' '));
  const taskId = await sent.getAttribute('data-task-id');
  expect(taskId).toMatch(/^task_\w+$/);
  return taskId!;
}

/** Turns review mode on from the room page, through its confirmation. */
export async function turnOnReviewMode(page: Page): Promise<void> {
  const box = page.getByRole('checkbox', { name: /Review mode/ });
  await box.click();
  await page.getByRole('button', { name: 'Turn on review mode' }).click();
  await expect(box).toBeChecked();
}

/**
 * Turns review mode off from the room page. With nothing waiting the console asks to confirm; with
 * candidates waiting it asks what becomes of them, and `waiting` is what this journey chooses.
 */
export async function turnOffReviewMode(page: Page, waiting: 'release' | 'approve' = 'release'): Promise<void> {
  const box = page.getByRole('checkbox', { name: /Review mode/ });
  await box.click();
  const plain = page.getByRole('button', { name: 'Turn off review mode' });
  const decide = page.getByRole('button', {
    name: waiting === 'release' ? /^Release .*undecided and turn off$/ : /^Approve .*and turn off$/,
  });
  await plain.or(decide).first().click();
  await expect(box).not.toBeChecked();
}

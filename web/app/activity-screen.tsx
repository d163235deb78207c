// The activity log with the rooms feature's words for room actions composed in: features do not
// import each other (eslint boundaries), so the log gets them from here.
import { ActivityPage } from '@web/features/activity/activity-page';
import { auditInWords } from '@web/features/rooms/audit-words';

export function ActivityScreen() {
  return <ActivityPage roomWords={auditInWords} />;
}

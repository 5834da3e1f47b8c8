import { ID } from './idChecks';

/** The ID pattern, for trigger/events/subscriptionDetails.ts until it reads ID from shared/idChecks.ts (then this file goes). */
export const ID_PATTERN = ID.pattern;

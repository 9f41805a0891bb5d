// Journeys over the demo seed with no background syncs, on one portal: the audit log, a list's
// export, then the admin's own settings. The audit journey goes first: it counts the one
// "Customer blocked" entry it made, and the export journey blocks a customer of its own. Settings
// go last, since they turn on MFA and change the admin's password. Each begins signed out in a
// browser context of its own (the journey files say what each checks).
import { auditJourney } from './audit.journey';
import { exportsJourney } from './exports.journey';
import { useBrowserSession } from './harness';
import { settingsMfaJourney } from './settings-mfa.journey';

const session = useBrowserSession({ SYNC_INTERVAL: 'off' });

auditJourney(session);
exportsJourney(session);
settingsMfaJourney(session);

// Journeys over a 40-terminal fleet after its first sync, on one portal: the command palette,
// provider billing, and a customer's terminals. They read the synced inventory and each picks or
// creates what it changes, so one start-up sync serves the three; each begins signed out in a
// browser context of its own (the journey files say what each checks).
import { customerTerminalsJourney } from './customer-terminals.journey';
import { useBrowserSession } from './harness';
import { paletteJourney } from './palette.journey';
import { providerBillingJourney } from './provider-billing.journey';

const session = useBrowserSession({ SIM_TERMINALS: '40' });

paletteJourney(session);
providerBillingJourney(session);
customerTerminalsJourney(session);

// Every page's header: who is logged in, their credits and the log-out button (or the
// log-in and sign-up links), whatever else the page's own script does.

import { currentUser } from "./session.js";

currentUser().catch(() => null);

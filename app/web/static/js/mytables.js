// The invite codes of the private tables you opened, kept by this browser: the server lists
// your tables (`lobby:mine`) but gives a private table's code only to whoever opens it.

const KEY = "holdem:invites";
const MOST = 20;

function key(user) {
  return `${KEY}:${user.public_id}`;
}

function read(user) {
  try {
    const saved = JSON.parse(localStorage.getItem(key(user)) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {};
  }
}

// Remember the invite code of a private table `user` opened.
export function rememberInvite(user, tableId, code) {
  if (!user || !code) return;
  const kept = Object.entries({ ...read(user), [tableId]: code }).slice(-MOST);
  try {
    localStorage.setItem(key(user), JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Storage full or refused (private browsing): the code is also in the table's address.
  }
}

// The invite code `user` was given for a table they opened, if this browser kept it.
export function inviteFor(user, tableId) {
  return user ? read(user)[tableId] || null : null;
}

// The REST API as the pages use it: JSON in and out, the CSRF header on every
// state-changing request, and one error type carrying the server's code and message.

import { chips } from "./format.js";

export const CSRF_COOKIE = "holdem_csrf";
const CSRF_HEADER = "X-CSRF-Token";

// What an error says to people, in one place. The errors that carry their numbers are
// said with the numbers as people write them; the others keep the server's words (its
// validation problems come in plain words already) as a sentence. Codes never change.
const SAID = {
  invalid_buy_in: [["min", "max"], (e) => (e.min === 1
    ? `You can add at most ${chips(e.max)} chips.`
    : `Buy in for ${chips(e.min)} to ${chips(e.max)} chips.`)],
  insufficient_credits: [["balance", "needed"], (e) => `You have ${chips(e.balance)} credits; this needs ${chips(e.needed)}.`],
  bet_too_small: [["min"], (e) => `The smallest bet or raise here is to ${chips(e.min)}.`],
  bet_too_large: [["max"], (e) => `The most you can bet here is ${chips(e.max)} (all-in).`],
  cannot_check: [["to_call"], (e) => `There is a bet of ${chips(e.to_call)} to call: call or fold.`],
};

function sentence(text) {
  const said = String(text).trim();
  const capital = said.charAt(0).toUpperCase() + said.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export function errorMessage(error, status = 0) {
  const [numbers, say] = SAID[error.code] || [null, null];
  if (numbers && numbers.every((name) => typeof error[name] === "number")) return say(error);
  return error.message ? sentence(error.message) : `The server answered ${status}.`;
}

export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(errorMessage(error, status));
    this.status = status;
    this.code = error.code || "http_error";
    this.details = error;
    this.problems = Array.isArray(error.problems) ? error.problems : [];
  }
}

export function cookie(name) {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(";")) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return null;
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const options = { method, headers, credentials: "same-origin" };
  if (method !== "GET") {
    const csrf = cookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
  }
  if (body instanceof FormData) {
    options.body = body;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, { error: { code: "network", message: "Cannot reach the server. Check your connection and try again." } });
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

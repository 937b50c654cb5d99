"""The small HTML pages e-mailed links open; each posts to the JSON API.

Opening a link changes nothing by itself (mail scanners prefetch links): the
page asks for a click, or a new password, and then calls the API.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse
from jinja2 import DictLoader, Environment, select_autoescape

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{ title }} · holdem-server</title>
<style>
body{font-family:system-ui,sans-serif;background:#0b3d2e;margin:0;padding:2rem}
main{max-width:28rem;margin:auto;background:#fff;border-radius:8px;padding:1.5rem 2rem}
label,input,button{display:block;width:100%;box-sizing:border-box;margin:.5rem 0}
input{padding:.6rem}button{padding:.7rem;background:#1a7f4b;color:#fff;border:0;border-radius:6px}
#result{min-height:1.5rem}
</style></head>
<body><main><h1>{{ title }}</h1>
<form id="form" data-endpoint="{{ endpoint }}">
{% if token %}<input type="hidden" name="token" value="{{ token }}">{% endif %}
{% for field in fields %}<label>{{ field.label }}
<input name="{{ field.name }}" type="{{ field.type }}"
 autocomplete="{{ field.autocomplete }}" required>
</label>{% endfor %}
<button type="submit">{{ action }}</button></form>
<p id="result" role="status"></p>
<script>
document.getElementById("form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const body = Object.fromEntries(new FormData(form).entries());
  const response = await fetch(form.dataset.endpoint, {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json().catch(() => ({}));
  document.getElementById("result").textContent = response.ok
    ? {{ done|tojson }} : ((data.error && data.error.message) || "Something went wrong.");
  if (response.ok) form.hidden = true;
});
</script></main></body></html>
"""

_templates = Environment(loader=DictLoader({"page.html": PAGE}), autoescape=select_autoescape())
pages_router = APIRouter(prefix="/auth", include_in_schema=False)
Token = Annotated[str, Query(max_length=128)]


def _page(**context: object) -> HTMLResponse:
    html = _templates.get_template("page.html").render(context)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


@pages_router.get("/verify-email")
async def verify_email_page(token: Token = "") -> HTMLResponse:
    """The page a verification or e-mail-change link opens."""
    return _page(title="Confirm your e-mail address", endpoint="/auth/verify-email",
                 token=token, fields=[], action="Confirm",
                 done="Your e-mail address is confirmed. You can close this page.")


@pages_router.get("/reset-password")
async def reset_password_page(token: Token = "") -> HTMLResponse:
    """The page a password reset link opens."""
    return _page(title="Choose a new password", endpoint="/auth/reset-password", token=token,
                 fields=[{"name": "new_password", "label": "New password (10+ characters)",
                          "type": "password", "autocomplete": "new-password"}],
                 action="Set password", done="Password changed. Log in with the new password.")


@pages_router.get("/forgot-password")
async def forgot_password_page() -> HTMLResponse:
    """The page that asks for a password reset link."""
    return _page(title="Forgot your password?", endpoint="/auth/forgot-password", token="",
                 fields=[{"name": "email", "label": "E-mail address", "type": "email",
                          "autocomplete": "email"}],
                 action="Send me a link", done="If an account uses this address, "
                 "an e-mail is on its way.")

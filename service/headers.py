"""The headers every answer carries, whichever path wrote it (Flask's, the move lane's: added
by `service.traced.Traced`; gunicorn's own refusals, `service.server`), and those of the pages.

- `X-Content-Type-Options: nosniff` on every answer: a browser takes each for the type it
  says, never a JSON body holding a player's name for a script or a page.
- `Cache-Control: no-store` on every answer to a request carrying a token (a seat's, the
  table's or the operator's): such an answer may hold what only its caller may see (a hand,
  the cards a move drew), and no browser or proxy cache may keep it. A game's creation, which
  answers with its tokens, says so itself (service.games).
- On the pages, a Content-Security-Policy allowing scripts, styles and connections from the
  server itself only (no inline script or style, no eval: the pages' modules and stylesheet
  are files under static/), images also as `data:` (a drawn board is one, as is the empty
  favicon), and no framing, said twice for older browsers (`frame-ancestors 'none'`,
  `X-Frame-Options: DENY`).

The lists are made once; an answer pays for a list extended, nothing more.
"""

from __future__ import annotations

ALWAYS = (("X-Content-Type-Options", "nosniff"),)
SECRET = (*ALWAYS, ("Cache-Control", "no-store"))
NO_STORE = dict(SECRET[-1:])
POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
          " form-action 'self'; frame-ancestors 'none'")
PAGE = {"Content-Security-Policy": POLICY, "X-Frame-Options": "DENY",
        # A seat's token rides in the URL fragment; no page should pass its address on anyway.
        "Referrer-Policy": "no-referrer"}


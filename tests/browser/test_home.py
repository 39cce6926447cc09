"""The home page's new-game form: each title's options as fields made from its declared spec
(GET /v1/titles), with their defaults and bounds, and only what differs from a default sent."""

from __future__ import annotations

import json
import re

from tests.browser.test_pages import game_id


def test_each_title_s_options_are_fields_with_their_defaults_and_bounds(context, web, client):
    home = context.new_page()
    home.goto(web + "/")
    for spec in client.get("/v1/titles").json["titles"]:
        home.select_option("#new-game", spec["name"])
        low = spec["seats"][0]
        home.fill("#new-players", ", ".join(f"p{n}" for n in range(low)))
        for option in spec["options"]:
            field = home.locator(f"#option-{option['name']}")
            applies = not option["seats"] or low in option["seats"]
            assert field.is_disabled() != applies, option["name"]
            default = option["defaults"].get(str(low), option["default"])
            if option["kind"] == "int":
                assert (field.get_attribute("min"), field.get_attribute("max")) == (
                    str(option["low"]), str(option["high"]))
                # A nullable number left out (no turn clock) is an empty field.
                assert field.input_value() == ("" if default is None else str(default))
            elif option["kind"] == "bool":
                assert field.is_checked() == default
            else:
                offered = field.locator("option").evaluate_all("els => els.map(e => e.value)")
                assert {json.dumps(c) for c in option["choices"]} <= set(offered)
                assert field.input_value() == json.dumps(default)


def test_each_option_is_labelled_in_words_its_unit_spelled_out(context, web, client):
    home = context.new_page()
    home.goto(web + "/")
    for spec in client.get("/v1/titles").json["titles"]:
        home.select_option("#new-game", spec["name"])
        for option in spec["options"]:
            said = home.locator(f"label[for=option-{option['name']}]").inner_text().strip()
            assert not re.search(r"\b[a-z]\b|_", said), said
    assert home.locator("label[for=option-turn_limit_s]").inner_text().strip() == (
        "turn limit (seconds)")


def test_an_option_changed_in_the_form_is_the_game_s(context, web, client):
    home = context.new_page()
    home.goto(web + "/")
    home.select_option("#new-game", "hermit")
    home.fill("#new-players", "ann, bob, cid")
    home.uncheck("#option-must_follow")
    home.select_option("#option-target", "100")
    home.click("#create button[type=submit]")
    spectator = home.locator(".spectator-link a")
    spectator.wait_for()
    game = client.get(f"/v1/games/{game_id(spectator.get_attribute('href'))}").json
    assert game["options"]["must_follow"] is False and game["options"]["target"] == 100

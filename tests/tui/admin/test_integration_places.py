"""Integrations on one space or site, without the app: which places ``a`` and ``x`` offer,
the confirmations' wording, and adding an integration that is not installed yet."""

from __future__ import annotations

from dataclasses import replace

import httpx
from fastapi import FastAPI

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.server.demo.seed import demo_token
from gitbook_tui.tui.admin.integration_places import (
    add_effect,
    add_to_place,
    addable,
    load_places,
    removable,
    remove_effect,
)
from gitbook_tui.tui.admin.integrations_data import (
    IntegrationRow,
    Place,
    load_integrations,
    uninstall,
)
from support.admin_world import demo_org

GUIDE = Place("space", "s1", "Tidewater User Guide")
API = Place("space", "s2", "HTTP API Reference")
CLI = Place("space", "s3", "tide CLI Reference")
DOCS = Place("site", "w1", "Tidewater Docs")

SLACK = IntegrationRow(
    name="slack",
    title="Slack",
    description="",
    target="all",
    visibility="public",
    scopes=("space:content:read", "site:views:read"),
    installation="inst1",
    status="active",
    space_selection="selected",
    site_selection="all",
    space_places=(API, GUIDE),
    site_places=(DOCS,),
)


def test_add_offers_the_places_not_reached_of_the_kinds_allowed() -> None:
    places = [API, GUIDE, CLI, DOCS, Place("site", "w2", "Help Center")]
    assert addable(SLACK, places) == [CLI]  # every site already (selection "all")
    spaces_only = replace(SLACK, target="space", site_selection="selected", site_places=())
    assert addable(spaces_only, places) == [CLI]
    picked = replace(SLACK, site_selection="selected")
    assert addable(picked, places) == [CLI, Place("site", "w2", "Help Center")]
    available = replace(
        SLACK,
        installation="",
        space_selection="",
        site_selection="",
        space_places=None,
        site_places=None,
    )
    assert addable(available, places) == [
        API,
        GUIDE,
        CLI,
        DOCS,
        Place("site", "w2", "Help Center"),
    ]


def test_remove_offers_what_the_installation_reaches() -> None:
    assert removable(SLACK) == [API, GUIDE, DOCS]
    assert removable(replace(SLACK, installation="")) == []


def test_the_confirmations_name_the_effect() -> None:
    assert add_effect(SLACK, CLI, "Tidewater").startswith(
        "Slack will be able to read space tide CLI Reference. It asks for: space:content:read."
    )
    writer = replace(SLACK, installation="", scopes=("space:content:write",))
    said = add_effect(writer, CLI, "Tidewater")
    assert "will be able to read and change space tide CLI Reference" in said
    assert "installed in Tidewater for the spaces and sites you add it to only" in said
    assert remove_effect(SLACK, GUIDE) == (
        "Slack stops reaching space Tidewater User Guide: it can no longer read it. "
        "It keeps 1 other space (HTTP API Reference)."
    )
    assert "It was on every site; it stays on the 0 other sites only" in remove_effect(SLACK, DOCS)
    alone = replace(SLACK, space_places=(GUIDE,))
    assert remove_effect(alone, GUIDE).endswith("It is left on no space.")


async def test_adding_an_integration_not_installed_installs_it_there_only(
    demo: FastAPI,
) -> None:
    transport = httpx.ASGITransport(app=demo)
    client = AsyncGitBook(
        demo_token("maya"), base_url="http://testserver/v1", transport=transport, max_retries=0
    )
    org = demo_org(demo)
    rows = await load_integrations(client, org)
    slack = next(r for r in rows if r.name == "tidewater-slack-notify")
    await uninstall(client, slack)
    gone = next(r for r in await load_integrations(client, org) if r.name == slack.name)
    assert not gone.installed
    places = await load_places(client, org)
    assert {p.title for p in places if p.kind == "site"} >= {"Tidewater Docs"}
    cli = next(p for p in places if p.title == "tide CLI Reference")
    await add_to_place(client, gone, cli, org)
    again = next(r for r in await load_integrations(client, org) if r.name == slack.name)
    assert again.installed and again.space_selection == "selected"
    assert again.spaces == ("tide CLI Reference",) and again.sites == ()
    await client.close()

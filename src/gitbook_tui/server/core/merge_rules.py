"""Merge rules: the organization's and each space's setting, its defaults and its checks.

An organization's rules are ``{type: "none"}`` (merge without review) or ``{type: "rules",
rules: [...]}``; a space's are ``{type: "inherit"}`` (the organization's, the default) or its
own standalone configuration. Rules are the official ``MergeRule`` shapes.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from .schemas import Body

ORG_DEFAULT: dict[str, Any] = {"type": "none"}
SPACE_DEFAULT: dict[str, Any] = {"type": "inherit"}

SimpleRuleName = Literal[
    "require_at_least_one_review",
    "require_at_least_one_approved_review",
    "require_all_reviews_approved",
    "require_agent_review",
    "require_up_to_date_change_request",
    "require_change_request_subject",
    "require_change_request_description",
    "require_author_to_merge",
]
UsersRuleName = Literal[
    "require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass"
]


class SimpleRule(Body):
    rule: SimpleRuleName


class UsersRule(Body):
    rule: UsersRuleName
    users: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(max_length=100)


class RulesConfig(Body):
    type: Literal["rules"]
    rules: list[SimpleRule | UsersRule] = Field(max_length=50)


class NoRulesConfig(Body):
    type: Literal["none"]


class InheritConfig(Body):
    type: Literal["inherit"]


OrgMergeRules = Annotated[RulesConfig | NoRulesConfig, Field(discriminator="type")]
SpaceMergeRules = Annotated[
    RulesConfig | NoRulesConfig | InheritConfig, Field(discriminator="type")
]


def org_merge_rules(org: dict[str, Any]) -> dict[str, Any]:
    return dict(org.get("mergeRules") or ORG_DEFAULT)


def space_merge_rules(space: dict[str, Any]) -> dict[str, Any]:
    return dict(space.get("mergeRules") or SPACE_DEFAULT)


def effective_rules(org: dict[str, Any], space: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules a change request of ``space`` must pass to be merged."""
    config = space_merge_rules(space)
    if config["type"] == "inherit":
        config = org_merge_rules(org)
    return list(config.get("rules") or []) if config["type"] == "rules" else []


def unmet_rules(
    rules: list[dict[str, Any]],
    *,
    merger: str,
    author: str,
    reviews: list[dict[str, Any]],
    outdated: bool,
    subject: str,
    description: bool,
) -> list[str]:
    """Why a change request may not be merged by ``merger`` ([] when it may).

    ``reviews`` are the latest review of each reviewer (``reviewer``, ``status``)."""
    if any(r["rule"] == "allow_bypass" and merger in r.get("users", []) for r in rules):
        return []
    approved = {r["reviewer"] for r in reviews if r.get("status") == "approved"}
    unmet = []
    for rule in rules:
        name, users = rule["rule"], rule.get("users", [])
        if name == "require_at_least_one_review" and not reviews:
            unmet.append("at least one review is required")
        elif name == "require_at_least_one_approved_review" and not approved:
            unmet.append("at least one approving review is required")
        elif name == "require_all_reviews_approved" and (
            not reviews or len(approved) < len(reviews)
        ):
            unmet.append("every review must approve")
        elif name == "require_up_to_date_change_request" and outdated:
            unmet.append("the change request must be up to date with the main content")
        elif name == "require_change_request_subject" and not subject.strip():
            unmet.append("the change request needs a subject")
        elif name == "require_change_request_description" and not description:
            unmet.append("the change request needs a description")
        elif name == "require_author_to_merge" and merger != author:
            unmet.append("only the author may merge")
        elif name == "require_specific_reviewers" and not set(users) <= approved:
            unmet.append("every required reviewer must approve")
        elif name == "require_one_of_specific_reviewers" and not set(users) & approved:
            unmet.append("one of the required reviewers must approve")
    return unmet

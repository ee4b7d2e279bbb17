"""Integrations, installations, installed space/site items, events and UI render output."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag

from .common import ApiModel, Open, Urls
from .lenient import Count, Timestamp
from .organizations import Organization
from .sites import Site
from .spaces import Space

__all__ = [
    "ConfigurationProperty",
    "ConfigurationSchema",
    "EventLog",
    "EventPayload",
    "EventPrevious",
    "EventStatus",
    "EventTrace",
    "Installation",
    "InstallationSelection",
    "InstallationStatus",
    "InstallationTarget",
    "Integration",
    "IntegrationBlock",
    "IntegrationBlockMarkdown",
    "IntegrationConfigurations",
    "IntegrationContentSource",
    "IntegrationEvent",
    "IntegrationEventDetail",
    "IntegrationExternalLink",
    "IntegrationPermissions",
    "IntegrationSiteItem",
    "IntegrationSpaceItem",
    "IntegrationTarget",
    "IntegrationVisibility",
    "LogLevel",
    "OrgInstallation",
    "UIButton",
    "UIConfirm",
    "UIControl",
    "UIElement",
    "UIElementNode",
    "UIRenderOutput",
]


class IntegrationTarget(StrEnum):
    """Where an integration can be installed."""

    all = "all"
    site = "site"
    space = "space"
    organization = "organization"


class IntegrationVisibility(StrEnum):
    """Who can see an integration."""

    public = "public"
    private = "private"
    unlisted = "unlisted"


class InstallationStatus(StrEnum):
    """Status of an installation."""

    active = "active"
    pending = "pending"
    paused = "paused"


class InstallationSelection(StrEnum):
    """Which spaces or sites an installation covers."""

    all = "all"
    selected = "selected"


class EventStatus(StrEnum):
    """Outcome of an integration event."""

    success = "success"
    failed = "failed"


class LogLevel(StrEnum):
    """Level of an event trace log entry."""

    debug = "debug"
    info = "info"
    warn = "warn"
    error = "error"


# --- integration ------------------------------------------------------------------------------------


class IntegrationBlockMarkdown(ApiModel):
    """Markdown form of a block: ``{codeblock, body}``."""

    codeblock: str | None = None
    body: str | None = None


class IntegrationBlock(ApiModel):
    """A content block provided by an integration."""

    id: str
    title: str | None = None
    description: str | None = None
    icon: str | None = None
    urlUnfurl: list[str] = Field(default_factory=list)
    markdown: IntegrationBlockMarkdown | None = None


class IntegrationContentSource(ApiModel):
    """A content source provided by an integration (``configuration.componentId``)."""

    id: str
    title: str | None = None
    description: str | None = None
    icon: str | None = None
    configuration: dict[str, Any] | None = None


class ConfigurationProperty(ApiModel):
    """One property of an integration configuration schema."""

    title: str | None = None
    description: str | None = None
    type: str | None = None
    default: Any = None
    completion_url: str | None = None
    enum: list[str] | None = None
    callback_url: str | None = None
    button_text: str | None = None


class ConfigurationSchema(ApiModel):
    """Configuration schema: ``{properties: {name: property}, required: [...]}``."""

    properties: dict[str, ConfigurationProperty] = Field(default_factory=dict)
    required: list[str] = Field(default_factory=list)


class IntegrationConfigurations(ApiModel):
    """Configuration schemas per installation level."""

    account: ConfigurationSchema | None = None
    space: ConfigurationSchema | None = None
    site: ConfigurationSchema | None = None


class IntegrationExternalLink(ApiModel):
    """An external link of an integration."""

    url: str | None = None
    label: str | None = None


class IntegrationPermissions(ApiModel):
    """What the caller may do with an integration."""

    admin: bool | None = None
    install: bool | None = None


class Integration(ApiModel):
    """An integration published on the platform; identified by ``name``."""

    object: str = "integration"
    name: str
    version: int | float | None = None
    title: str | None = None
    description: str | None = None
    summary: str | None = None
    previewImages: list[str] = Field(default_factory=list)
    target: Open[IntegrationTarget] | None = None
    verified: bool | None = None
    visibility: Open[IntegrationVisibility] | None = None
    scopes: list[str] = Field(default_factory=list)
    categories: list[str] = Field(default_factory=list)
    blocks: list[IntegrationBlock] = Field(default_factory=list)
    contentSources: list[IntegrationContentSource] = Field(default_factory=list)
    configurations: IntegrationConfigurations | None = None
    externalLinks: list[IntegrationExternalLink] = Field(default_factory=list)
    owner: Organization | None = None
    urls: Urls | None = None
    permissions: IntegrationPermissions | None = None
    # A policy string, or directives by name (``{"script-src": "'self'"}``).
    contentSecurityPolicy: str | dict[str, Any] | None = None


# --- installations ----------------------------------------------------------------------------------


class InstallationTarget(ApiModel):
    """Target of an installation: ``{organization}``."""

    organization: str | None = None


class Installation(ApiModel):
    """An installation of an integration in an organization."""

    id: str
    status: Open[InstallationStatus] | None = None
    space_selection: Open[InstallationSelection] | None = None
    site_selection: Open[InstallationSelection] | None = None
    spaces: Count | None = None
    configuration: dict[str, Any] = Field(default_factory=dict)
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None
    urls: Urls | None = None
    externalIds: list[str] = Field(default_factory=list)
    target: InstallationTarget | None = None


class IntegrationSpaceItem(ApiModel):
    """An integration installed on a space; ``space`` is an id or a Space with details."""

    integration: str | None = None
    installation: str | None = None
    status: Open[InstallationStatus] | None = None
    configuration: dict[str, Any] = Field(default_factory=dict)
    externalIds: list[str] = Field(default_factory=list)
    urls: Urls | None = None
    space: Space | str | None = None


class OrgInstallation(ApiModel):
    """An integration installed in an organization (``GET /orgs/{id}/installations``)."""

    integration: Integration
    installation: Installation


class IntegrationSiteItem(ApiModel):
    """An integration installed on a site; ``site`` is an id or a Site with details."""

    integration: str | None = None
    installation: str | None = None
    status: Open[InstallationStatus] | None = None
    configuration: dict[str, Any] = Field(default_factory=dict)
    externalIds: list[str] = Field(default_factory=list)
    urls: Urls | None = None
    site: Site | str | None = None


# --- events -------------------------------------------------------------------------------------------


class EventPrevious(ApiModel):
    """State before an installation event."""

    status: Open[InstallationStatus] | None = None
    configuration: dict[str, Any] | None = None


class EventPayload(ApiModel):
    """Payload of an integration event, e.g. ``type`` = ``installation_setup``."""

    eventId: str | None = None
    type: str | None = None
    installationId: str | None = None
    status: Open[InstallationStatus] | None = None
    previous: EventPrevious | None = None


class IntegrationEvent(ApiModel):
    """A recorded integration event."""

    id: str
    integrationId: str | None = None
    installationId: str | None = None
    createdAt: Timestamp | None = None
    payload: EventPayload | None = None
    status: Open[EventStatus] | None = None


class EventLog(ApiModel):
    """A log entry of an event trace."""

    message: str | None = None
    timestamp: Timestamp | None = None
    level: Open[LogLevel] | None = None


class EventTrace(ApiModel):
    """Trace of an event: its log entries."""

    logs: list[EventLog] = Field(default_factory=list)


class IntegrationEventDetail(ApiModel):
    """Answer of ``GET .../events/{eventId}``: ``{event, trace}``."""

    event: IntegrationEvent | None = None
    trace: EventTrace | None = None


# --- UI render ----------------------------------------------------------------------------------------


class UIConfirm(ApiModel):
    """Confirmation asked before an action."""

    title: str | None = None
    text: str | None = None
    confirm: str | None = None
    style: str | None = None


class UIControl(ApiModel):
    """A control of a block (``{icon, label, onPress, confirm}``)."""

    icon: str | None = None
    label: str | None = None
    onPress: Any = None
    confirm: UIConfirm | None = None


class UIElement(ApiModel):
    """A UI element (block or any other kind); ``children`` nests elements."""

    type: str | None = None
    # A text element's children are a string, or strings among text and link elements.
    children: str | list[UIElementNode | str] = Field(default_factory=list)
    controls: list[UIControl | list[UIControl]] = Field(default_factory=list)


class UIButton(UIElement):
    """A button element."""

    type: str | None = "button"
    style: str | None = None
    onPress: Any = None
    icon: str | None = None
    trailingIcon: str | None = None
    label: str | None = None
    tooltip: str | None = None
    confirm: UIConfirm | None = None
    disabled: bool | None = None


def _element_tag(value: Any) -> str:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return "button" if kind == "button" else "element"


UIElementNode = Annotated[
    Annotated[UIButton, Tag("button")] | Annotated[UIElement, Tag("element")],
    Discriminator(_element_tag),
]
"""A child element: a :class:`UIButton` when ``type`` is ``button``, else a :class:`UIElement`."""


class UIRenderOutput(ApiModel):
    """Output of an integration UI render: ``{type: "element", element, state, props}``."""

    type: str | None = None
    element: UIElement | None = None
    state: dict[str, Any] = Field(default_factory=dict)
    props: dict[str, Any] = Field(default_factory=dict)

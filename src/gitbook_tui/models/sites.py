"""Sites: sections, site spaces, redirects, adaptive schema and the published site profile."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag

from .common import ApiModel, Open, Role, ThemedUrl, Urls
from .lenient import Count, Timestamp
from .spaces import GitSync, Space

__all__ = [
    "AgentsContext",
    "PublishCheckout",
    "PublishResult",
    "PublishedSite",
    "PublishedSiteCustomizations",
    "RedirectDestination",
    "RedirectDestinationKind",
    "Site",
    "SiteAdaptiveContent",
    "SiteAdaptiveSchema",
    "SiteAds",
    "SiteAdsStatus",
    "SiteCustomization",
    "SiteFeature",
    "SiteIcon",
    "SitePermissions",
    "SiteProxy",
    "SiteRedirect",
    "SiteRedirectLookup",
    "SiteScript",
    "SiteSection",
    "SiteSectionGroup",
    "SiteSpace",
    "SiteStructure",
    "SiteStructureEntry",
    "SiteStructureType",
    "SiteType",
    "SiteVisibility",
    "TemplateCondition",
]


class SiteType(StrEnum):
    """Plan type of a site (``basic`` on creation)."""

    basic = "basic"
    premium = "premium"
    ultimate = "ultimate"
    sponsored = "sponsored"
    legacy_basic = "legacy-basic"
    legacy_premium = "legacy-premium"


class SiteVisibility(StrEnum):
    """Audience of a published site."""

    public = "public"
    unlisted = "unlisted"
    share_link = "share-link"
    visitor_auth = "visitor-auth"


class AgentsContext(StrEnum):
    """Whether the agent may access the site."""

    excluded = "excluded"
    included = "included"


class SiteAdsStatus(StrEnum):
    """Status of ads on a site."""

    pending = "pending"
    in_review = "in-review"
    live = "live"
    rejected = "rejected"
    disabled = "disabled"


class SiteStructureType(StrEnum):
    """Shape of a published site's structure."""

    sections = "sections"
    siteSpaces = "siteSpaces"


class RedirectDestinationKind(StrEnum):
    """Kind of site redirect destination."""

    site_section = "site-section"
    site_space = "site-space"
    site_page = "site-page"
    external = "external"


class SiteIcon(ApiModel):
    """Icon of a site: ``{icon: {light, dark}}`` or ``{emoji}``."""

    icon: ThemedUrl | None = None
    emoji: str | None = None


class SiteProxy(ApiModel):
    """Proxy of a site: ``{origin, target}``."""

    origin: str | None = None
    target: str | None = None


class SiteAdaptiveContent(ApiModel):
    """Adaptive content switch of a site."""

    enabled: bool | None = None


class SiteAds(ApiModel):
    """Ads settings of a site."""

    status: Open[SiteAdsStatus] | None = None
    submittable: bool | None = None
    topic: str | None = None
    reason: str | None = None
    zoneId: str | None = None


class SiteFeature(ApiModel):
    """A feature available to a site and the plan that brings it."""

    id: str
    plan: Open[SiteType] | None = None
    frozen: bool | None = None
    customizations: list[str] = Field(default_factory=list)


class SitePermissions(ApiModel):
    """What the caller may do with a site."""

    view: bool | None = None
    access: bool | None = None
    edit: bool | None = None
    create: bool | None = None
    admin: bool | None = None
    installIntegration: bool | None = None
    viewAdaptiveSchema: bool | None = None
    editAdaptiveSchema: bool | None = None


class Site(ApiModel):
    """A published documentation site."""

    object: str = "site"
    id: str
    type: Open[SiteType] | None = None
    appliedType: Open[SiteType] | None = None
    title: str | None = None
    icon: SiteIcon | None = None
    hostname: str | None = None
    basename: str | None = None
    proxy: SiteProxy | None = None
    visibility: Open[SiteVisibility] | None = None
    defaultLevel: Open[Role] | None = None
    published: bool | None = None
    siteSpaces: Count | None = None
    gitSync: GitSync | None = None
    createdAt: Timestamp | None = None
    lastScanAt: Timestamp | None = None
    adaptiveContent: SiteAdaptiveContent | None = None
    ads: SiteAds | None = None
    agentsContext: Open[AgentsContext] | None = None
    features: list[SiteFeature] = Field(default_factory=list)
    urls: Urls | None = None
    permissions: SitePermissions | None = None


class PublishCheckout(ApiModel):
    """Answer of publishing a site when the organization's plan needs an upgrade first: a
    Stripe checkout session, finished in the GitBook web app. The site is not published."""

    type: str = "checkout"
    sessionId: str


def _publish_tag(value: Any) -> str:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return "checkout" if kind == "checkout" else "site"


PublishResult = Annotated[
    Annotated[Site, Tag("site")] | Annotated[PublishCheckout, Tag("checkout")],
    Discriminator(_publish_tag),
]
"""Answer of publishing: the published :class:`Site`, or a :class:`PublishCheckout`."""


class SiteSpace(ApiModel):
    """A space published as a variant inside a site (section)."""

    object: str = "site-space"
    id: str
    path: str | None = None
    section: str | None = None
    space: Space | str | None = None
    title: str | None = None
    default: bool | None = None
    condition: str | None = None
    pageId: str | None = None
    draft: bool | None = None
    hidden: bool | None = None
    hasAdvancedCustomizationFeature: bool | None = None
    urls: Urls | None = None


class SiteSection(ApiModel):
    """A section of a site, holding site spaces."""

    object: str = "site-section"
    id: str
    title: str | None = None
    description: str | None = None
    default: bool | None = None
    draft: bool | None = None
    path: str | None = None
    condition: str | None = None
    sectionGroup: str | None = None
    siteSpaces: list[SiteSpace] = Field(default_factory=list)
    urls: Urls | None = None
    icon: str | None = None


class SiteSectionGroup(ApiModel):
    """A group of site sections."""

    object: str = "site-section-group"
    id: str
    title: str | None = None
    sectionGroup: str | None = None
    draft: bool | None = None
    icon: str | None = None
    sections: list[SiteSection] = Field(default_factory=list)
    children: list[SiteStructureEntry] = Field(default_factory=list)


def _structure_tag(value: Any) -> str:
    obj = value.get("object") if isinstance(value, dict) else getattr(value, "object", None)
    if obj == "site-space":
        return "site-space"
    if obj == "site-section-group":
        return "site-section-group"
    return "site-section"


SiteStructureEntry = Annotated[
    Annotated[SiteSection, Tag("site-section")]
    | Annotated[SiteSpace, Tag("site-space")]
    | Annotated[SiteSectionGroup, Tag("site-section-group")],
    Discriminator(_structure_tag),
]
"""An item of a site structure, chosen by its ``object`` (section by default)."""


class RedirectDestination(ApiModel):
    """Where a redirect goes, e.g. ``{kind: "site-section", siteSectionId}``."""

    kind: Open[RedirectDestinationKind] | None = None
    siteSectionId: str | None = None
    siteSpaceId: str | None = None
    pageId: str | None = None
    url: str | None = None


class SiteRedirect(ApiModel):
    """A redirect from a source path of a site."""

    object: str = "site-redirect"
    id: str
    source: str | None = None
    destination: RedirectDestination | None = None
    draft: bool | None = None
    captureWildcard: bool | None = None
    permanent: bool | None = None
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None


class SiteRedirectLookup(ApiModel):
    """Answer of ``GET .../redirect``: the redirect and the resolved target."""

    redirect: SiteRedirect | None = None
    target: str | None = None


class SiteAdaptiveSchema(ApiModel):
    """Adaptive content schema of a site (``jsonSchema`` is a draft-07 JSON Schema)."""

    object: str = "site-adaptive-schema"
    jsonSchema: dict[str, Any] = Field(default_factory=dict)
    updatedAt: Timestamp | None = None


class TemplateCondition(ApiModel):
    """A template condition for adaptive content."""

    description: str | None = None
    condition: str


class SiteCustomization(ApiModel):
    """Customization settings of a site or site space (loosely typed)."""

    title: str | None = None
    styling: dict[str, Any] | None = None
    internationalization: dict[str, Any] | None = None
    favicon: dict[str, Any] | None = None
    header: dict[str, Any] | None = None
    footer: dict[str, Any] | None = None
    announcement: dict[str, Any] | None = None
    themes: dict[str, Any] | None = None
    pdf: dict[str, Any] | None = None
    feedback: dict[str, Any] | None = None
    aiSearch: dict[str, Any] | None = None
    advancedCustomization: dict[str, Any] | None = None
    pagination: dict[str, Any] | None = None
    trademark: dict[str, Any] | None = None
    ai: dict[str, Any] | None = None
    git: dict[str, Any] | None = None
    privacyPolicy: dict[str, Any] | None = None
    socialPreview: dict[str, Any] | None = None
    insights: dict[str, Any] | None = None
    updatedAt: Timestamp | None = None


class PublishedSiteCustomizations(ApiModel):
    """Customizations of a published site, and per site space id."""

    site: SiteCustomization | None = None
    siteSpaces: dict[str, SiteCustomization] = Field(default_factory=dict)


class SiteStructure(ApiModel):
    """Structure of a published site: ``{type: "sections", structure: [...]}``."""

    type: Open[SiteStructureType] | None = None
    structure: list[SiteStructureEntry] = Field(default_factory=list)


class SiteScript(ApiModel):
    """An integration script loaded by a published site."""

    script: str | None = None
    contentSecurityPolicy: str | None = None
    cookies: bool | None = None


class PublishedSite(ApiModel):
    """Published site profile (``GET .../sites/{siteId}/published``)."""

    object: str = "published-content-site"
    site: Site | None = None
    structure: SiteStructure | None = None
    customizations: PublishedSiteCustomizations | None = None
    scripts: list[SiteScript] = Field(default_factory=list)

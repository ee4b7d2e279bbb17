"""Organizations, their billing/trial details and organization search results."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import ApiModel, Open, Role, Urls
from .lenient import Count, Timestamp
from .search import SpaceSearchItem

__all__ = [
    "BillingInterval",
    "EmailDomainOrganizations",
    "OrgSearchItem",
    "Organization",
    "OrganizationBilling",
    "OrganizationBillingMigration",
    "OrganizationBlocked",
    "OrganizationCommunityType",
    "OrganizationDefaultContent",
    "OrganizationPermissions",
    "OrganizationPlan",
    "OrganizationTrial",
    "OrganizationType",
    "OrganizationUseCase",
    "TrialStatus",
]


class OrganizationType(StrEnum):
    """Kind of organization."""

    business = "business"
    community = "community"


class OrganizationUseCase(StrEnum):
    """What the organization uses GitBook for."""

    internalDocs = "internalDocs"
    docsSite = "docsSite"
    audienceControlledSite = "audienceControlledSite"
    productDocs = "productDocs"
    teamKnowledgeBase = "teamKnowledgeBase"
    designSystem = "designSystem"
    openSourceDocs = "openSourceDocs"
    notes = "notes"
    other = "other"


class OrganizationCommunityType(StrEnum):
    """Kind of community organization."""

    nonProfit = "nonProfit"
    openSource = "openSource"
    education = "education"


class OrganizationPlan(StrEnum):
    """Billing product (plan) of an organization."""

    free_2024 = "free_2024"
    plus_2024 = "plus_2024"
    pro_2024 = "pro_2024"
    enterprise_2024 = "enterprise_2024"
    community_2024 = "community_2024"
    free = "free"
    plus = "plus"
    pro = "pro"
    internal = "internal"


class BillingInterval(StrEnum):
    """Billing interval."""

    monthly = "monthly"
    yearly = "yearly"


class TrialStatus(StrEnum):
    """Status of an organization's trial."""

    notapplicable = "notapplicable"
    none = "none"
    active = "active"
    ended = "ended"
    expired = "expired"


class OrganizationDefaultContent(ApiModel):
    """Default content of the organization: ``{type: "site", site: <site_id>}``."""

    type: str | None = None
    site: str | None = None


class OrganizationBilling(ApiModel):
    """Billing details (only for organization members)."""

    interval: Open[BillingInterval] | None = None
    endDate: Timestamp | None = None
    hasPaymentFailed: bool | None = None
    isScheduledToCancel: bool | None = None


class OrganizationTrial(ApiModel):
    """Trial state of an organization."""

    status: Open[TrialStatus] | None = None
    count: Count | None = None
    endDate: Timestamp | None = None
    decision: str | None = None


class OrganizationBlocked(ApiModel):
    """Why an organization is blocked."""

    reason: str | None = None
    source: str | None = None


class OrganizationBillingMigration(ApiModel):
    """Internal billing migration details."""

    deadline: Timestamp | None = None
    discountPercent: float | None = None
    discountEndDate: Timestamp | None = None


class OrganizationPermissions(ApiModel):
    """What the caller may do with an organization."""

    view: bool | None = None
    access: bool | None = None
    admin: bool | None = None
    ownTeam: bool | None = None
    createContent: bool | None = None
    createOpenAPISpec: bool | None = None
    ingestConversations: bool | None = None
    viewBilling: bool | None = None
    listMembers: bool | None = None
    listTeams: bool | None = None
    listIntegrations: bool | None = None
    listInstallations: bool | None = None
    installIntegration: bool | None = None


class Organization(ApiModel):
    """An organization: owner of collections, spaces, sites, teams and integrations."""

    object: str = "organization"
    id: str
    title: str | None = None
    createdAt: Timestamp | None = None
    emailDomains: list[str] = Field(default_factory=list)
    hostname: str | None = None
    type: Open[OrganizationType] | None = None
    useCase: Open[OrganizationUseCase] | None = None
    communityType: Open[OrganizationCommunityType] | None = None
    defaultRole: Open[Role] | None = None
    defaultContent: OrganizationDefaultContent | None = None
    sso: bool | None = None
    ai: bool | None = None
    inviteLinks: bool | None = None
    plan: Open[OrganizationPlan] | None = None
    billing: OrganizationBilling | None = None
    urls: Urls | None = None
    trial: OrganizationTrial | None = None
    customHostname: str | None = None
    blocked: OrganizationBlocked | None = None
    internal_billingMigration: OrganizationBillingMigration | None = None
    permissions: OrganizationPermissions | None = None


class EmailDomainOrganizations(ApiModel):
    """Answer of ``GET /v1/email-domains/{emailDomain}/orgs``."""

    organizations: list[Organization] = Field(default_factory=list)


class OrgSearchItem(ApiModel):
    """Organization search result: a space and its matching pages."""

    id: str
    type: str | None = None
    title: str | None = None
    score: float | None = None
    pages: list[SpaceSearchItem] = Field(default_factory=list)

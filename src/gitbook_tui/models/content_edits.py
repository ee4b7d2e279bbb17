"""Content batches of a change request (``POST .../content``): the changes sent and the answer."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field, model_validator

from .change_requests import ChangeRequest
from .common import ApiModel, DocumentBody, Open, Urls
from .revisions import File

__all__ = [
    "ChangeRequestContentChange",
    "ChangeRequestContentUpdate",
    "ContentChangeOperation",
    "InsertFile",
    "UpdatedPage",
    "UpdatedPageRef",
]


class ContentChangeOperation(StrEnum):
    """Operation of one item of a change request content batch."""

    update_page = "update_page"
    insert_page = "insert_page"
    delete_page = "delete_page"
    revert_page = "revert_page"
    insert_files = "insert_files"


class InsertFile(ApiModel):
    """A file to upload in an ``insert_files`` change (from ``url`` or ``base64``)."""

    name: str
    ref: str | None = None
    contentType: str | None = None
    url: str | None = None
    base64: str | None = None


class ChangeRequestContentChange(ApiModel):
    """One item of ``POST .../change-requests/{id}/content`` (``{changes: [...]}``).

    Dump with ``model_dump(mode="json")``: fields never set are left out, while an explicit
    ``into=None`` (move to the root) is kept as ``null``.
    """

    operation: Open[ContentChangeOperation]
    page: str | None = None
    document: DocumentBody | None = None
    title: str | None = None
    slug: str | None = None
    emoji: str | None = None
    icon: str | None = None
    description: str | None = None
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None
    condition: str | None = None
    into: str | None = None
    at: int | None = None
    ref: str | None = None
    revision: str | None = None
    block: list[str] | None = None
    files: list[InsertFile] | None = None

    @classmethod
    def update_markdown(cls, page: str, markdown: str) -> ChangeRequestContentChange:
        """Replace the body of ``page`` with ``markdown``."""
        return cls(
            operation=ContentChangeOperation.update_page,
            page=page,
            document=DocumentBody(markdown=markdown),
        )

    @classmethod
    def insert_markdown(
        cls, title: str, markdown: str, into: str | None = None, at: int | None = None
    ) -> ChangeRequestContentChange:
        """Create a page titled ``title`` with body ``markdown`` (under ``into`` if given)."""
        fields: dict[str, Any] = {
            "operation": ContentChangeOperation.insert_page,
            "title": title,
            "document": DocumentBody(markdown=markdown),
        }
        if into is not None:
            fields["into"] = into
        if at is not None:
            fields["at"] = at
        return cls.model_validate(fields)

    @classmethod
    def delete(cls, page: str) -> ChangeRequestContentChange:
        """Delete ``page``."""
        return cls(operation=ContentChangeOperation.delete_page, page=page)


class UpdatedPageRef(ApiModel):
    """A page created or modified by a content batch, with its API location."""

    object: str = "page"
    id: str
    urls: Urls | None = None


class UpdatedPage(ApiModel):
    """One affected page in a content batch answer: a ``created_page`` or ``updated_page``
    names the page (``{object, id, urls}``), a ``deleted_page`` only its id (no content left)."""

    object: str | None = None
    ref: str | None = None
    page: UpdatedPageRef | str | None = None

    @property
    def page_id(self) -> str | None:
        """The id of the page, in either form."""
        return self.page.id if isinstance(self.page, UpdatedPageRef) else self.page


class ChangeRequestContentUpdate(ApiModel):
    """Answer of a content batch: with ``compat=false`` the change request and the affected
    pages; the change request alone (the ``compat=true`` form) is read as one without pages."""

    changeRequest: ChangeRequest | None = None
    changes: list[UpdatedPage] = Field(default_factory=list)
    insertedFiles: list[File] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _change_request_form(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("object") == "change-request":
            return {"changeRequest": data}
        return data

"""Request bodies of change requests: create, patch and the content changes of a batch."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from ...models.limits import MAX_BODY_CHARS
from ..core.schemas import Body


class DocumentIn(Body):
    """A page's ``Document``: ``{markdown}`` (or ``{document}``, or ``{}`` for empty). Page
    content, not a typed message: one content update may carry a whole long page."""

    markdown: str | None = Field(None, max_length=1_000_000)
    document: dict[str, Any] | None = None


class MessageIn(Body):
    """A typed message as a ``Document`` (a review's comment): ``{markdown}``, ``{document}``
    or ``{}``, within the one body limit (a document's length is its markdown's, checked
    where it is converted)."""

    markdown: str | None = Field(None, max_length=MAX_BODY_CHARS)
    document: dict[str, Any] | None = None


class ChangeRequestCreate(Body):
    subject: str | None = Field(None, max_length=100)
    agentTaskId: str | None = Field(None, max_length=256)


class DescriptionDocument(Body):
    """A change request description: the official ``JSONDocument`` (``{object: "document",
    data?, nodes: [block...]}``) or ``{markdown}``, converted to one."""

    model_config = ConfigDict(extra="allow")

    object: Literal["document"] | None = None
    data: dict[str, Any] | None = None
    nodes: list[dict[str, Any]] | None = Field(None, max_length=10_000)
    markdown: str | None = Field(None, max_length=MAX_BODY_CHARS)

    @model_validator(mode="after")
    def _one_form(self) -> DescriptionDocument:
        if self.markdown is not None:
            if self.object is not None or self.nodes is not None:
                raise ValueError("give either a JSON document or {markdown}, not both")
        elif self.object is None or self.nodes is None:
            raise ValueError(
                "must be a JSON document {object: 'document', nodes: [...]} or {markdown}"
            )
        elif any(node.get("object") != "block" for node in self.nodes):
            raise ValueError("nodes: every top-level node must be a block")
        return self


class ChangeRequestPatch(Body):
    subject: str | None = Field(None, max_length=100)
    description: DescriptionDocument | None = None
    status: Literal["draft", "open", "archived"] | None = None


def _check_slug(value: str | None) -> str | None:
    if value is not None and (value != value.strip() or "/" in value or " " in value):
        raise ValueError("must not contain '/' or spaces")
    return value


class PageFieldsIn(Body):
    title: str | None = Field(None, min_length=1, max_length=1000)
    slug: str | None = Field(None, max_length=100)
    emoji: str | None = Field(None, max_length=50)
    icon: str | None = Field(None, max_length=50)
    description: str | None = Field(None, max_length=1000)
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None
    condition: str | None = Field(None, max_length=1000)

    _slug = field_validator("slug")(_check_slug)


class UpdatePageChange(PageFieldsIn):
    operation: Literal["update_page"]
    page: str = Field(min_length=1)
    document: DocumentIn | None = None
    into: str | None = None
    at: int | None = Field(None, ge=0)


class InsertPageChange(PageFieldsIn):
    operation: Literal["insert_page"]
    document: DocumentIn
    into: str | None = None
    at: int | None = Field(None, ge=0)
    ref: str | None = Field(None, max_length=256)


class DeletePageChange(Body):
    operation: Literal["delete_page"]
    page: str = Field(min_length=1)


class RevertPageChange(Body):
    operation: Literal["revert_page"]
    page: str = Field(min_length=1)
    revision: str | None = None
    block: list[str] | None = None


class InsertFileSpec(Body):
    ref: str | None = Field(None, max_length=256)
    name: str = Field(min_length=1, max_length=256)
    contentType: str | None = Field(None, max_length=256)
    url: str | None = Field(None, max_length=2048)
    base64: str | None = Field(None, max_length=20_000_000)

    @model_validator(mode="after")
    def _one_source(self) -> InsertFileSpec:
        if (self.url is None) == (self.base64 is None):
            raise ValueError("give exactly one of url or base64")
        return self


class InsertFilesChange(Body):
    operation: Literal["insert_files"]
    files: list[InsertFileSpec] = Field(min_length=1, max_length=20)


ContentChange = Annotated[
    UpdatePageChange | InsertPageChange | DeletePageChange | RevertPageChange | InsertFilesChange,
    Field(discriminator="operation"),
]


class ContentChanges(Body):
    changes: list[ContentChange] = Field(min_length=1, max_length=50)

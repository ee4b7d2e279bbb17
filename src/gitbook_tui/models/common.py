"""Shared building blocks: the base model, open enums, roles, paged lists, urls, refs and documents."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Generic, TypeVar, cast, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    SerializerFunctionWrapHandler,
    model_serializer,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from .lenient import Count

__all__ = [
    "ApiModel",
    "ContentRef",
    "ContentRefKind",
    "DocumentBody",
    "DocumentFormat",
    "FileReference",
    "GitBlob",
    "GitCommit",
    "ListOrder",
    "Open",
    "Page",
    "PageCursor",
    "Role",
    "ThemedUrl",
    "Urls",
    "VariableValue",
    "Variables",
    "coerce_open_enum",
]

E = TypeVar("E", bound=StrEnum)
T = TypeVar("T")


class ApiModel(BaseModel):
    """Base of every API model.

    Unknown fields are kept (``extra="allow"``) and dumped back out. When dumping, a field
    that was never given and is ``None`` is left out, so a model dumps like the JSON it was
    read from; a field explicitly set to ``None`` (e.g. a guest's ``role``) is kept as ``null``.
    """

    # defer_build: a model's validator is built when it first reads an answer, not when its
    # module is imported (most are never used by a given run: the app's start reads a few)
    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)

    @model_serializer(mode="wrap")
    def _omit_unset_none(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if not isinstance(data, dict):
            return data
        given = self.model_fields_set
        return {key: value for key, value in data.items() if value is not None or key in given}

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        # The serializer above only omits keys: describe the output with the fields' schema.
        if handler.mode == "serialization" and "serialization" in core_schema:
            core_schema = cast(
                CoreSchema, {k: v for k, v in core_schema.items() if k != "serialization"}
            )
        return handler(core_schema)

    def to_api(self) -> dict[str, Any]:
        """The JSON-ready dict of this model (as sent over the wire)."""
        result: dict[str, Any] = self.model_dump(mode="json")
        return result


# --- open enums ---------------------------------------------------------------------------------


def coerce_open_enum(enum_cls: type[E], value: Any) -> E | str:
    """Return ``enum_cls(value)`` for a known value, the plain string for an unknown one.

    Anything that is not a string is rejected.
    """
    if isinstance(value, enum_cls):
        return value
    if isinstance(value, str):
        try:
            return enum_cls(value)
        except ValueError:
            return str(value)
    raise PydanticCustomError(
        "open_enum",
        "Input should be a string (one of {expected} or any other value)",
        {"expected": ", ".join(repr(m.value) for m in enum_cls)},
    )


class _OpenEnumMarker:
    """Annotated marker turning ``E | str`` into "known value -> member, other string -> str"."""

    def __get_pydantic_core_schema__(
        self, source_type: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        enum_cls: type[StrEnum] | None = next(
            (
                arg
                for arg in get_args(source_type)
                if isinstance(arg, type) and issubclass(arg, StrEnum)
            ),
            None,
        )
        if enum_cls is None:  # pragma: no cover - only reachable through misuse of Open
            raise TypeError(f"Open[...] needs a StrEnum, got {source_type!r}")

        # A union validated in pydantic-core (no Python call per value: lists of thousands
        # of items hold several open enums each): the member when the value is known, else
        # the string; anything else fails with one "open_enum" error, as coerce_open_enum.
        expected = ", ".join(repr(m.value) for m in enum_cls)
        return core_schema.union_schema(
            [handler.generate_schema(enum_cls), core_schema.str_schema()],
            mode="left_to_right",
            custom_error_type="open_enum",
            custom_error_message=f"Input should be a string (one of {expected} or any other value)",
        )


Open = Annotated[E | str, _OpenEnumMarker()]
"""``Open[SomeStrEnum]``: a field accepting any string; known values become enum members."""


class Role(StrEnum):
    """Role of a member on content (``null`` is used for guests where a role is nullable)."""

    admin = "admin"
    create = "create"
    edit = "edit"
    review = "review"
    comment = "comment"
    read = "read"


class ListOrder(StrEnum):
    """Sort order of list endpoints."""

    asc = "asc"
    desc = "desc"


class DocumentFormat(StrEnum):
    """Output format of content reads (``format`` query parameter)."""

    document = "document"
    markdown = "markdown"


# --- paged lists ----------------------------------------------------------------------------------


class PageCursor(ApiModel):
    """Cursor of the next page of a list: pass ``page`` as the ``page`` query parameter."""

    page: str


_PAGE_TYPES: dict[tuple[type[Any], Any], Any] = {}
"""Every ``Page[X]`` made, kept for the process: pydantic keeps them only weakly."""


class Page(ApiModel, Generic[T]):
    """A paged list ``Page<T>``: ``Page[Space].model_validate(json)``."""

    def __class_getitem__(cls, item: Any) -> Any:
        # pydantic's own cache of parametrized models holds them weakly: a ``Page[Space]``
        # (a class, so freed only by the collector) was made again after each collection,
        # and its validator built again at its next answer (10-20 ms each, three times in
        # a warm start). A few item types exist: each is kept.
        made = _PAGE_TYPES.get((cls, item))
        if made is None:
            made = _PAGE_TYPES[(cls, item)] = super().__class_getitem__(item)
        return made

    items: list[T] = Field(default_factory=list)
    count: Count | None = None
    next: PageCursor | None = None

    @property
    def next_page(self) -> str | None:
        """The identifier of the next page, or ``None`` on the last page."""
        return self.next.page if self.next is not None else None


# --- small shared objects -------------------------------------------------------------------------


class Urls(ApiModel):
    """Link strings of a resource; each resource fills in a subset of these keys."""

    location: str | None = None
    app: str | None = None
    published: str | None = None
    public: str | None = None
    icon: str | None = None
    logo: str | None = None
    assets: str | None = None
    preview: str | None = None
    login: str | None = None
    logout: str | None = None
    publicEndpoint: str | None = None
    publicContentEndpoint: str | None = None


class ThemedUrl(ApiModel):
    """A pair of URLs (or colors) for the light and dark themes."""

    light: str | None = None
    dark: str | None = None


class ContentRefKind(StrEnum):
    """Known kinds of content references."""

    file = "file"
    url = "url"
    page = "page"
    anchor = "anchor"
    user = "user"
    collection = "collection"
    space = "space"
    reusable_content = "reusable-content"
    tag = "tag"
    openapi = "openapi"


class ContentRef(ApiModel):
    """Reference to a piece of content, e.g. ``{kind: "file", file: <file_id>}``."""

    kind: Open[ContentRefKind] | None = None
    file: str | None = None
    url: str | None = None
    page: str | None = None
    anchor: str | None = None
    space: str | None = None
    user: str | None = None
    collection: str | None = None
    reusableContent: str | None = None
    tag: str | None = None
    spec: str | None = None


class FileReference(ContentRef):
    """Reference to a file: ``{kind: "file", file: <file_id>}``."""

    kind: Open[ContentRefKind] | None = ContentRefKind.file
    file: str


class DocumentBody(ApiModel):
    """Content body: ``{markdown}``, ``{document}`` (JSON document) or ``{}``."""

    markdown: str | None = None
    document: dict[str, Any] | None = None

    @property
    def is_empty(self) -> bool:
        """True for the empty-object form (no markdown and no document)."""
        return self.markdown is None and self.document is None


class GitBlob(ApiModel):
    """Git metadata of a page, file or reusable content."""

    oid: str | None = None
    path: str | None = None


class GitCommit(ApiModel):
    """Git commit associated with a revision."""

    oid: str | None = None
    message: str | None = None
    createdByGitBook: bool | None = None
    url: str | None = None
    ref: str | None = None


VariableValue = str | bool | int | float
"""Value of a content variable."""

Variables = dict[str, VariableValue]
"""Map of variable name to value."""

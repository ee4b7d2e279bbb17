"""Routes of the change requests family (being written)."""

from fastapi import APIRouter

router = APIRouter()

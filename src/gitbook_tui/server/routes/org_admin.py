"""Routes of the org admin family (being written)."""

from fastapi import APIRouter

router = APIRouter()

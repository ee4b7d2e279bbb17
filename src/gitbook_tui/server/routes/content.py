"""Routes of the content family (being written)."""

from fastapi import APIRouter

router = APIRouter()

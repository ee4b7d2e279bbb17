"""Routes of the integrations family (being written)."""

from fastapi import APIRouter

router = APIRouter()

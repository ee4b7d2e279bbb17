"""Routes of the sites family (being written)."""

from fastapi import APIRouter

router = APIRouter()

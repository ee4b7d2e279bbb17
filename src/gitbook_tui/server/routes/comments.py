"""Routes of the comments family (being written)."""

from fastapi import APIRouter

router = APIRouter()

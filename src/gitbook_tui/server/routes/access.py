"""Routes of the access family (being written)."""

from fastapi import APIRouter

router = APIRouter()

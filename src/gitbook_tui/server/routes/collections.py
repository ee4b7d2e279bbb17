"""Routes of the collections family (being written)."""

from fastapi import APIRouter

router = APIRouter()

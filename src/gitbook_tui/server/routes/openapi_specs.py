"""Routes of the openapi specs family (being written)."""

from fastapi import APIRouter

router = APIRouter()

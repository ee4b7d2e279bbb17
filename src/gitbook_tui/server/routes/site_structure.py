"""Routes of the site structure family (being written)."""

from fastapi import APIRouter

router = APIRouter()

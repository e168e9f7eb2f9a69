"""Verification guards: static checks on candidate sources and runtime checks in the worker."""

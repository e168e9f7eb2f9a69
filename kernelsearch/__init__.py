"""kernelsearch: test-time kernel search with reflective prompt evolution (GEPA)."""

__version__ = "0.1.0"

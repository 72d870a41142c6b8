"""Runs pytest on the given test files; exits 77 (ctest: skipped) when
pytest is not installed (Debian: python3-pytest)."""

import sys

try:
    import pytest
except ImportError:
    print("pytest is not installed (Debian: python3-pytest): skipped")
    sys.exit(77)

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))

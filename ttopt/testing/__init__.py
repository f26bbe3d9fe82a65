"""Test support shipped with ttopt: input generators the test suite and `bench/` share."""

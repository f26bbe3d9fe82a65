"""Hypothesis profiles for the whole suite.

The suite is reproducible by default: "ci" (derandomized, no example database) is loaded unless
another profile is chosen, so a fresh clone and CI run the same examples every time. Randomized
runs are opt-in: `pytest --hypothesis-profile=dev` (random draws, normal sizes) or
`pytest --hypothesis-profile=fuzz` (random draws, ten times the examples; also ten times the
seeded CLI fuzz cases in tests/fuzz).
"""

from hypothesis import HealthCheck, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True, suppress_health_check=_QUIET)
settings.register_profile("dev", deadline=None, print_blob=True, suppress_health_check=_QUIET)
settings.register_profile("fuzz", max_examples=1000, deadline=None, print_blob=True, suppress_health_check=_QUIET)
settings.load_profile("ci")

"""StableHLO/Shardy sharding pipeline: propagation rules, Shardy passes, tt passes."""
